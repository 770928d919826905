import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { abortableSleep, CardFlowError } from './card-flow.ts';
import type { CardProgress, FlowContext } from './card-flow.ts';

export type CardFlow = (ctx: FlowContext) => Promise<string>;

export type CardFlowView =
  | { kind: 'idle' }
  | { kind: 'working'; progress: CardProgress }
  | { kind: 'failed'; message: string; code: number | null; notInstalled: boolean }
  | { kind: 'done'; text: string };

/** Runs a card flow and keeps what the operator sees; a new start or an unmount cancels the running one. */
export function useCardFlow() {
  const { t } = useTranslation();
  const [view, setView] = useState<CardFlowView>({ kind: 'idle' });
  const controller = useRef<AbortController | null>(null);

  const start = useCallback(
    (flow: CardFlow) => {
      controller.current?.abort(new Error('restarted'));
      const own = new AbortController();
      controller.current = own;
      setView({ kind: 'working', progress: { phase: 'connecting', detail: null } });
      const ctx: FlowContext = {
        signal: own.signal,
        report: (progress) => {
          if (!own.signal.aborted) setView({ kind: 'working', progress });
        },
        sleep: abortableSleep,
      };
      return flow(ctx).then(
        (text) => {
          if (!own.signal.aborted) setView({ kind: 'done', text });
          return true;
        },
        (error: unknown) => {
          if (own.signal.aborted) return false;
          if (error instanceof CardFlowError) setView({ kind: 'failed', message: error.message, code: error.code, notInstalled: error.notInstalled });
          else setView({ kind: 'failed', message: error instanceof Error && error.message ? error.message : t('request.internalError'), code: null, notInstalled: false });
          return false;
        },
      );
    },
    [t],
  );

  const cancel = useCallback(() => {
    controller.current?.abort(new Error('cancelled'));
    setView({ kind: 'idle' });
  }, []);

  useEffect(() => () => controller.current?.abort(new Error('unmounted')), []);

  return { view, start, cancel };
}
