import { useMemo, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { codes } from '@campus/contracts';
import { CardFlowError } from '../../lib/cards/card-flow.ts';
import { CardReaderDialog } from '../../lib/cards/card-reader-dialog.tsx';
import type { CardFlow } from '../../lib/cards/card-reader-dialog.tsx';
import { useGateStepPaths } from '../../lib/gate-screen-frame.tsx';
import * as storage from '../../lib/storage.ts';

export interface SetupStepDialogProps {
  title: string;
  flow: CardFlow;
  /** Where the set-up goes on after this step. */
  next: string;
  /** The dialog has closed (after success, failure or Cancel). */
  onClosed: () => void;
  /** The operator closed the dialog on this failure (a screen puts it on the form field to retype, say). */
  onFailureClosed?: (error: CardFlowError) => void;
}

/**
 * The reader dialog of a set-up step: on success the next screen's entry check sees the step done before it
 * opens; an expired or refused master-card token (221) sends the operator to swipe the mother card again at
 * once, with the token forgotten.
 */
export function SetupStepDialog({ title, flow, next, onClosed, onFailureClosed }: SetupStepDialogProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const masterCardPath = useGateStepPaths().masterCard;
  const latest = useRef({ onClosed });
  latest.current = { onClosed };
  const lastFailure = useRef<CardFlowError | null>(null);

  // the dialog restarts when its flow changes: keep the wrapper as stable as the flow it wraps
  const guarded = useMemo<CardFlow>(
    () => async (ctx) => {
      lastFailure.current = null;
      try {
        return await flow(ctx);
      } catch (error) {
        if (!ctx.signal.aborted && error instanceof CardFlowError) {
          lastFailure.current = error;
          if (error.code === codes.masterCardTokenInvalid) {
            storage.masterCardToken.set(null);
            latest.current.onClosed();
            void navigate(masterCardPath, { replace: true });
          }
        }
        throw error;
      }
    },
    [flow, navigate, masterCardPath],
  );

  return (
    <CardReaderDialog
      open
      title={title}
      flow={guarded}
      onClose={async (outcome) => {
        onClosed();
        if (!outcome.ok) {
          if (lastFailure.current) onFailureClosed?.(lastFailure.current);
          return;
        }
        // the set-up state, and the card lists of the management screens
        await queryClient.invalidateQueries();
        void navigate(next, { replace: true });
      }}
    />
  );
}
