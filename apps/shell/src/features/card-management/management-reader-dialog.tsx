import { useMemo, useRef } from 'react';
import { CardReaderDialog } from '../../lib/cards/card-reader-dialog.tsx';
import type { CardDialogOutcome, CardFlow } from '../../lib/cards/card-reader-dialog.tsx';
import { useRefreshCardTable } from './card-table-queries.ts';
import type { CardTableKind } from './card-table-kinds.ts';
import { useTokenRefusal } from './use-token-refusal.ts';

export interface ManagementReaderDialogProps {
  kind: CardTableKind;
  title: string;
  /** Keep it the same function while the dialog is open (a new one starts it again). */
  flow: CardFlow;
  /** The dialog has closed; the table is reloaded already. */
  onClosed: (outcome: CardDialogOutcome) => void;
  autoCloseMs?: number;
}

/**
 * The reader dialog of a card management action (spec §4: progress, retries, closes 2 s after success). A refused
 * token sends the operator to swipe the mother card at once; any other end reloads the table.
 */
export function ManagementReaderDialog({ kind, title, flow, onClosed, autoCloseMs }: ManagementReaderDialogProps) {
  const refused = useTokenRefusal(kind);
  const refresh = useRefreshCardTable(kind);
  const latest = useRef({ onClosed, refused });
  latest.current = { onClosed, refused };

  const guarded = useMemo<CardFlow>(
    () => async (ctx) => {
      try {
        return await flow(ctx);
      } catch (error) {
        if (!ctx.signal.aborted && latest.current.refused(error)) latest.current.onClosed({ ok: false, code: null });
        throw error;
      }
    },
    [flow],
  );

  return (
    <CardReaderDialog
      open
      title={title}
      flow={guarded}
      autoCloseMs={autoCloseMs}
      onClose={async (outcome) => {
        onClosed(outcome);
        await refresh();
      }}
    />
  );
}
