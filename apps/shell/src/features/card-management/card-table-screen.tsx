import { useState } from 'react';
import { Alert, Button } from 'antd';
import { Navigate } from 'react-router-dom';
import type { CardStateAction, GateSetupState } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import type { CardFlow } from '../../lib/cards/card-reader-dialog.tsx';
import { LoadFailedAlert } from '../../lib/load-failed-alert.tsx';
import { CardActionBar } from './card-action-bar.tsx';
import { CardFilters } from './card-filters.tsx';
import { addKeyCardFlow, recycleCardFlow, rewriteAdminCardFlow, seekCardFlow } from './card-flows.ts';
import { isTokenRefused, problemText } from './card-manager-calls.ts';
import { cardSearchBody, defaultCardSort, firstCardPage, noCardFilter } from './card-search.ts';
import type { CardFilter, CardPage, CardSort } from './card-search.ts';
import { useCardFilterOptions, useCardPage, useSeekedCard } from './card-table-queries.ts';
import { cardTableKinds } from './card-table-kinds.ts';
import type { CardRow, CardTableKind } from './card-table-kinds.ts';
import { CardTableView } from './card-table-view.tsx';
import { IssueAdminCardDialog } from './issue-admin-card-dialog.tsx';
import { ManagementReaderDialog } from './management-reader-dialog.tsx';
import { RecoveryDialog } from './recovery-dialog.tsx';
import { RecycleConfirm } from './recycle-confirm.tsx';
import { StateActionConfirm } from './state-action-confirm.tsx';
import type { ActionOutcome } from './state-action-confirm.tsx';

/** The dialog open over the table, if any. */
type Task =
  | { type: 'state'; action: CardStateAction; cards: CardRow[] }
  /** `quiet`: the success needs no line above the table (seek shows the card instead). */
  | { type: 'reader'; title: string; flow: CardFlow; autoCloseMs?: number; quiet?: boolean }
  | { type: 'issue' }
  | { type: 'recover' }
  /** Recycling asks first: the reader blanks the card. */
  | { type: 'recycle'; card: CardRow };

/** After a seek the dialog closes sooner: the card is shown in the table. */
const seekCloseMs = 800;

/**
 * A card management table (spec §2 "Card management tables", §4 "Card states"): filters, the actions on the
 * selected cards, the card on the reader, and the table. Every action reloads the table; a successful one clears
 * the selection and says what it did.
 */
export function CardTableScreen({ kind, state }: { kind: CardTableKind; state: GateSetupState }) {
  const { t } = useTranslation();
  const config = cardTableKinds[kind];
  const [filter, setFilter] = useState<CardFilter>(noCardFilter);
  const [page, setPage] = useState<CardPage>(firstCardPage);
  const [sort, setSort] = useState<CardSort>(defaultCardSort);
  const [selectedIds, setSelectedIds] = useState<string[]>([]);
  const [shownFixedNo, setShownFixedNo] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<ActionOutcome | null>(null);
  const [task, setTask] = useState<Task | null>(null);

  const { kinds } = useCardFilterOptions(kind);
  const cardPage = useCardPage(kind, cardSearchBody(filter, page, sort));
  const seeked = useSeekedCard(kind, shownFixedNo);

  const showingOne = shownFixedNo !== null;
  const rows = showingOne ? (seeked.data ? [seeked.data] : []) : (cardPage.data?.rows ?? []);
  const selectedCards = rows.filter((row) => selectedIds.includes(row.id));
  const loadError = showingOne ? seeked.error : cardPage.error;

  if (isTokenRefused(loadError) || isTokenRefused(kinds.error)) return <Navigate to={config.masterCardPath} replace />;

  const startOver = (next: () => void) => {
    next();
    setSelectedIds([]);
  };
  const finished = (done: ActionOutcome | null) => {
    setTask(null);
    if (!done) return;
    setOutcome(done);
    if (done.type === 'success') setSelectedIds([]);
  };
  const reader = (title: string, flow: CardFlow, options: { autoCloseMs?: number; quiet?: boolean } = {}) => {
    setOutcome(null);
    setTask({ type: 'reader', title, flow, ...options });
  };
  const succeeded = (text: string | null) => finished(text === null ? null : { type: 'success', text });
  const oneSelected = selectedCards.length === 1 ? selectedCards[0]! : null;

  return (
    <div className="campus-card-management">
      {kind === 'keyCards' && !state.hasSecret ? (
        <Alert type="warning" showIcon title={t('cardManagement.recovery.secretMissing')} style={{ marginBottom: 16 }} />
      ) : null}
      <CardFilters
        kind={kind}
        onApply={(next) =>
          startOver(() => {
            setFilter(next);
            setShownFixedNo(null);
            setPage((current) => ({ ...current, index: 1 }));
          })
        }
      />
      <CardActionBar
        kind={kind}
        selectedStates={selectedCards.map((card) => card.state)}
        onIssue={() => {
          setOutcome(null);
          if (kind === 'adminCards') setTask({ type: 'issue' });
          else reader(t('cardSetup.keyCard.dialogTitle'), addKeyCardFlow());
        }}
        onStateAction={(action) => {
          setOutcome(null);
          setTask({ type: 'state', action, cards: selectedCards });
        }}
        onRecycle={() => {
          if (!oneSelected) return;
          setOutcome(null);
          setTask({ type: 'recycle', card: oneSelected });
        }}
        onRewrite={() => oneSelected && reader(t('cardManagement.rewrite.title', { fixedNo: oneSelected.fixedNo }), rewriteAdminCardFlow(oneSelected))}
        onSeek={() => reader(t('cardManagement.seek.title'), seekCardFlow(kind, (row) => startOver(() => setShownFixedNo(row.fixedNo))), { autoCloseMs: seekCloseMs, quiet: true })}
        onRecover={() => {
          setOutcome(null);
          setTask({ type: 'recover' });
        }}
      />
      {outcome ? (
        <Alert
          type={outcome.type}
          showIcon
          closable={{ 'aria-label': t('cardReader.close') }}
          role={outcome.type === 'error' ? 'alert' : 'status'}
          title={outcome.text}
          onClose={() => setOutcome(null)}
          style={{ marginBottom: 12 }}
        />
      ) : null}
      {showingOne ? (
        <Alert
          type="info"
          showIcon
          role="status"
          title={t('cardManagement.seek.showing', { fixedNo: shownFixedNo })}
          action={
            <Button size="small" onClick={() => startOver(() => setShownFixedNo(null))}>
              {t('cardManagement.seek.showAll')}
            </Button>
          }
          style={{ marginBottom: 12 }}
        />
      ) : null}
      {loadError ? (
        <LoadFailedAlert
          title={t('cardManagement.loadFailed')}
          description={problemText(loadError)}
          onRetry={() => void (showingOne ? seeked.refetch() : cardPage.refetch())}
          retrying={showingOne ? seeked.isFetching : cardPage.isFetching}
          style={{ marginBottom: 12 }}
        />
      ) : null}
      <CardTableView
        kind={kind}
        rows={rows}
        total={showingOne ? rows.length : (cardPage.data?.total ?? 0)}
        loading={showingOne ? seeked.isFetching : cardPage.isFetching}
        page={showingOne ? null : page}
        sort={sort}
        kindOptions={kinds.data ?? []}
        selectedIds={selectedIds}
        onSelect={setSelectedIds}
        onPageSort={(nextPage, nextSort) =>
          startOver(() => {
            setPage(nextPage);
            setSort(nextSort);
          })
        }
      />
      {task?.type === 'state' ? <StateActionConfirm kind={kind} action={task.action} cards={task.cards} onClosed={finished} /> : null}
      {task?.type === 'reader' ? (
        <ManagementReaderDialog
          kind={kind}
          title={task.title}
          flow={task.flow}
          autoCloseMs={task.autoCloseMs}
          onClosed={(result) => succeeded(result.ok && !task.quiet ? result.text : null)}
        />
      ) : null}
      {task?.type === 'issue' ? <IssueAdminCardDialog onClosed={succeeded} /> : null}
      {task?.type === 'recover' ? <RecoveryDialog onClosed={succeeded} /> : null}
      {task?.type === 'recycle' ? (
        <RecycleConfirm
          kind={kind}
          card={task.card}
          onConfirm={() => reader(t('cardManagement.recycle.title', { fixedNo: task.card.fixedNo }), recycleCardFlow(kind, task.card))}
          onCancel={() => setTask(null)}
        />
      ) : null}
    </div>
  );
}
