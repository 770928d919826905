import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from '../use-translation.ts';
import { abortableSleep, CardFlowError } from './card-flow.ts';
import { rereadIssuerAddress } from './card-issuer.ts';
import type { CardProgress, FlowContext } from './card-flow.ts';

export type CardFlow = (ctx: FlowContext) => Promise<string>;

export type CardFlowView =
  | { kind: 'idle' }
  | { kind: 'working'; progress: CardProgress }
  | { kind: 'failed'; message: string; code: number | null; notInstalled: boolean; outdatedIssuer: boolean }
  | { kind: 'done'; text: string };

/**
 * Runs a card flow and keeps what the operator sees; a new start or an unmount cancels the running one. A start
 * after the issuer did not answer (Try again, a swipe's retry) first reads the settings again: the issuer may have
 * been moved to another address since the page was opened.
 */
export function useCardFlow() {
  const { t } = useTranslation();
  const [view, setView] = useState<CardFlowView>({ kind: 'idle' });
  const controller = useRef<AbortController | null>(null);
  const issuerDidNotAnswer = useRef(false);

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
      const reread = issuerDidNotAnswer.current ? rereadIssuerAddress() : Promise.resolve();
      issuerDidNotAnswer.current = false;
      return reread.then(() => flow(ctx)).then(
        (text) => {
          if (!own.signal.aborted) setView({ kind: 'done', text });
          return true;
        },
        (error: unknown) => {
          if (own.signal.aborted) return false;
          issuerDidNotAnswer.current = error instanceof CardFlowError && error.notInstalled;
          if (error instanceof CardFlowError) setView({ kind: 'failed', message: error.message, code: error.code, notInstalled: error.notInstalled, outdatedIssuer: error.outdatedIssuer });
          else setView({ kind: 'failed', message: error instanceof Error && error.message ? error.message : t('request.internalError'), code: null, notInstalled: false, outdatedIssuer: false });
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
