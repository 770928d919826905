import type { AdminCardRewriteRequest, CardReadReply, CardRecycleConfirm, CardRecycleData, PreparedCardWrite } from '@campus/contracts';
import { apiPaths, cardIssuerPaths } from '@campus/contracts';
import { issueAdminCard } from '../../lib/cards/admin-card-flow.ts';
import type { AdminCardIssuePaths } from '../../lib/cards/admin-card-flow.ts';
import { issuerCall, pairIssuer } from '../../lib/cards/card-issuer.ts';
import { CardFlowError, readerStep, serverStep } from '../../lib/cards/card-flow.ts';
import type { FlowContext } from '../../lib/cards/card-flow.ts';
import { i18n } from '../../lib/i18n.ts';
import { readerStepWithKey } from '../../lib/cards/issuer-key.ts';
import { completePrepared, writeConfirm, writePrepared } from '../../lib/cards/prepared-card-write.ts';
import { keyCardFlow } from '../../lib/cards/key-card-flow.ts';
import { asCardManager } from './card-manager-calls.ts';
import { wantingCard } from './card-on-reader.ts';
import { cardTableKinds } from './card-table-kinds.ts';
import type { CardRow, CardTableKind } from './card-table-kinds.ts';

export interface AdminCardIssue {
  oprtId: string;
  /** The holder as the operator knows him (name and login name), for the success text. */
  holder: string;
  password: string;
  /** The installation's seal key (PasswordComplexity.sealKey): the server checks the password policy itself. */
  sealKey: string;
}

const sameFixedNo = (a: string, b: string) => a.trim().toUpperCase() === b.trim().toUpperCase();

const adminCardPaths: AdminCardIssuePaths = { prepare: apiPaths.adminCardGetIssueData, write: cardIssuerPaths.issueOprtLoginCard, confirm: apiPaths.adminCardIssue };

/** A new administrator login card onto the blank card on the reader, with its card password (two-phase). */
export function issueAdminCardFlow(issue: AdminCardIssue) {
  return async (ctx: FlowContext): Promise<string> => {
    await issueAdminCard(ctx, { paths: adminCardPaths, options: asCardManager, password: issue.password, sealKey: issue.sealKey, holder: { oprtId: issue.oprtId } });
    return i18n.t('cardManagement.issue.done', { holder: issue.holder });
  };
}

/** The selected card in use written again under a new issue number: its older copies stop signing in. */
export function rewriteAdminCardFlow(card: CardRow) {
  return async (ctx: FlowContext): Promise<string> => {
    await readerStep(ctx, 'connecting', pairIssuer);
    const onReader = await readerStep(ctx, 'reading', () => issuerCall<CardReadReply>(cardIssuerPaths.readOprtLoginCard));
    if (!sameFixedNo(onReader.fixedNo, card.fixedNo)) throw new CardFlowError(i18n.t('cardManagement.otherCardOnReader', { onReader: onReader.fixedNo, selected: card.fixedNo }), 0);
    const request: AdminCardRewriteRequest = { id: card.id, fixedNo: onReader.fixedNo };
    const prepared = await serverStep<PreparedCardWrite>(ctx, 'preparing', apiPaths.adminCardRewrite, request, asCardManager);
    const write = () => issuerCall(cardIssuerPaths.writeCard, { fixedNo: prepared.fixedNo, image: prepared.image, expect: 'ours' });
    await writePrepared(ctx, prepared, write, writeConfirm(prepared, apiPaths.adminCardIssue, asCardManager), readerStepWithKey);
    return i18n.t('cardManagement.rewrite.done', { fixedNo: card.fixedNo });
  };
}

/** Recycling: the server prepares, the issuer checks and blanks that very card, the server records it (30). */
export function recycleCardFlow(kind: CardTableKind, card: CardRow) {
  const { paths, issuer } = cardTableKinds[kind];
  return async (ctx: FlowContext): Promise<string> => {
    await readerStep(ctx, 'connecting', pairIssuer);
    const data = await serverStep<CardRecycleData>(ctx, 'preparing', paths.getRecycleData, { id: card.id }, asCardManager);
    const onCard = { cardKind: data.cardKind, cardFixedNo: data.fixedNo };
    const wanted = { key: kind === 'adminCards' ? 'adminCardToRecycle' : 'keyCardToRecycle', fixedNo: data.fixedNo } as const;
    await completePrepared(
      ctx,
      () =>
        wantingCard(wanted, async () => {
          await readerStepWithKey(ctx, 'checking', () => issuerCall(issuer.checkCanClear, onCard));
          await readerStepWithKey(ctx, 'writing', () => issuerCall(issuer.clear, onCard));
        }),
      { url: paths.recycle, body: (isSuccess) => ({ id: data.id, prepareId: data.prepareId, isSuccess }) satisfies CardRecycleConfirm, options: asCardManager },
    );
    return i18n.t('cardManagement.recycle.done', { fixedNo: data.fixedNo });
  };
}

/** A new system key card onto the blank card on the reader: the set-up's two-phase issue, with either token. */
export function addKeyCardFlow() {
  return keyCardFlow(asCardManager);
}

/** Seek: the card on the reader, looked up in this table; `onFound` gets the row. */
export function seekCardFlow(kind: CardTableKind, onFound: (row: CardRow) => void) {
  return async (ctx: FlowContext): Promise<string> => {
    await readerStep(ctx, 'connecting', pairIssuer);
    const onReader = await readerStep(ctx, 'reading', () => issuerCall<CardReadReply>(cardIssuerPaths.readBaseInfo));
    const row = await serverStep<CardRow | null>(ctx, 'checking', cardTableKinds[kind].paths.seek, { fixedNo: onReader.fixedNo }, asCardManager);
    if (!row) throw new CardFlowError(i18n.t('cardManagement.seek.notFound', { fixedNo: onReader.fixedNo }), 0);
    onFound(row);
    return i18n.t('cardManagement.seek.found', { fixedNo: row.fixedNo });
  };
}
