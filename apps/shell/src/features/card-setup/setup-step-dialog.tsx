import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { codes } from '@campus/contracts';
import { CardReaderDialog } from '../../lib/card-reader-dialog.tsx';
import type { CardFlow } from '../../lib/card-reader-dialog.tsx';
import { gateStepPaths } from '../../lib/gate-setup.ts';

export interface SetupStepDialogProps {
  title: string;
  flow: CardFlow;
  /** Where the set-up goes on after this step. */
  next: string;
  /** The dialog has closed (after success, failure or Cancel). */
  onClosed: () => void;
}

/**
 * The reader dialog of a set-up step: on success the next screen's entry check sees the step done before it
 * opens; an expired master-card swipe (221) sends the operator to swipe the mother card again.
 */
export function SetupStepDialog({ title, flow, next, onClosed }: SetupStepDialogProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (
    <CardReaderDialog
      open
      title={title}
      flow={flow}
      onClose={async (outcome) => {
        onClosed();
        if (!outcome.ok) {
          if (outcome.code === codes.masterCardTokenInvalid) void navigate(gateStepPaths.masterCard, { replace: true });
          return;
        }
        // the set-up state, and the card lists of the management screens
        await queryClient.invalidateQueries();
        void navigate(next, { replace: true });
      }}
    />
  );
}
