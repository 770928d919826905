import type { CanIssueCardReply, CanIssueReply, PreparedCardWrite } from '@campus/contracts';
import { apiPaths, cardIssuerPaths, managementCardKind } from '@campus/contracts';
import { issuerCall, pairIssuer } from './card-issuer.ts';
import { CardFlowError, readerStep, serverStep } from './card-flow.ts';
import type { FlowContext } from './card-flow.ts';
import { i18n } from '../i18n.ts';
import { writeConfirm, writePrepared } from './prepared-card-write.ts';
import type { RequestOptions } from '../request.ts';

const master = { useMasterToken: true } as const;

/**
 * Issuing the system key card (spec §2 /swiper-sys-secret) onto the blank card on the reader; card management
 * issues a new one the same way with its own token (`options`).
 */
export function keyCardFlow(options: RequestOptions = master) {
  return async (ctx: FlowContext): Promise<string> => {
    await readerStep(ctx, 'connecting', pairIssuer);
    const blank = await readerStep(ctx, 'checking', () => issuerCall<CanIssueReply>(cardIssuerPaths.checkSystemKeyCardCanIssue, { cardKind: managementCardKind }));
    const check = await serverStep<CanIssueCardReply>(ctx, 'checking', apiPaths.systemKeyCardCheckCanIssue, { fixedNo: blank.fixedNo }, options);
    if (!check.canIssue) throw new CardFlowError(i18n.t('cardSetup.cardAlreadyExists'), 0);
    const prepared = await serverStep<PreparedCardWrite>(ctx, 'preparing', apiPaths.systemKeyCardAdd, { fixedNo: blank.fixedNo }, options);
    await writePrepared(ctx, prepared, () => issuerCall(cardIssuerPaths.issueSystemKeyCard, { fixedNo: prepared.fixedNo, image: prepared.image }), writeConfirm(prepared, apiPaths.gmSetIssueSecretCard, options));
    return i18n.t('cardSetup.keyCard.done');
  };
}
