import type { CanIssueCardReply, CardWriteConfirm, GateSetupState, MasterCardToken, MasterCardReadReply, PreparedCardWrite, SuperAdminIssueRequest } from '@campus/contracts';
import { apiPaths, cardIssuerPaths } from '@campus/contracts';
import type { CanIssueReply } from '@campus/contracts';
import { issuerCall, pairIssuer } from '../../lib/card-issuer.ts';
import { CardFlowError, readerStep, serverStep } from '../../lib/card-flow.ts';
import type { FlowContext } from '../../lib/card-flow.ts';
import { passwordDigest } from '../../lib/crypto.ts';
import { i18n } from '../../lib/i18n.ts';
import { loadSystemKey } from '../../lib/issuer-key.ts';
import { sealPassword } from '../../lib/password-seal.ts';
import { apiPostRaw } from '../../lib/request.ts';
import type { RequestOptions } from '../../lib/request.ts';
import * as storage from '../../lib/storage.ts';

const master = { useMasterToken: true } as const;

/**
 * Tells the server a prepared write did not happen (isSuccess false), so nothing stays half-issued. Sent also
 * after Cancel: the dialog's signal is not used, and a failure here changes nothing (the prepare expires).
 */
async function forgetPrepared(confirmUrl: string, prepareId: string, options: RequestOptions = master): Promise<void> {
  await apiPostRaw(confirmUrl, { prepareId, isSuccess: false } satisfies CardWriteConfirm, options).catch(() => undefined);
}

/**
 * Writes a prepared image and confirms it. A write that fails or is cancelled is forgotten on the server; a
 * write that landed is confirmed even when the operator cancelled meanwhile, or the card would hold an image
 * the server never issued.
 */
async function writePrepared(ctx: FlowContext, prepared: PreparedCardWrite, write: () => Promise<unknown>, confirmUrl: string, options: RequestOptions = master): Promise<void> {
  if (!prepared.alreadyWritten) {
    try {
      await readerStep(ctx, 'writing', write);
    } catch (error) {
      await forgetPrepared(confirmUrl, prepared.prepareId, options);
      throw error;
    }
  }
  const confirm: CardWriteConfirm = { prepareId: prepared.prepareId, isSuccess: true };
  if (ctx.signal.aborted) {
    await apiPostRaw(confirmUrl, confirm, options).catch(() => undefined);
    throw ctx.signal.reason;
  }
  await serverStep(ctx, 'confirming', confirmUrl, confirm, options);
}

/** System initialisation (spec §2 /system-init): the new system key onto the mother card on the reader. */
export function systemInitFlow(customerNo: string, customerPassword: string) {
  return async (ctx: FlowContext): Promise<string> => {
    await readerStep(ctx, 'connecting', pairIssuer);
    const mother = await readerStep(ctx, 'reading', () => issuerCall<MasterCardReadReply>(cardIssuerPaths.readMasterCard));
    const customerPwd = await passwordDigest(customerPassword, 'sm3');
    const prepared = await serverStep<PreparedCardWrite>(ctx, 'preparing', apiPaths.addGmInitData, { customerNo, customerPwd, fixedNo: mother.fixedNo, image: mother.image });
    const write = () => issuerCall(cardIssuerPaths.writeCard, { fixedNo: prepared.fixedNo, image: prepared.image, expect: 'mother' });
    if (!prepared.alreadyWritten) {
      try {
        await readerStep(ctx, 'writing', write);
      } catch (error) {
        await forgetPrepared(apiPaths.gmSetSystemInit, prepared.prepareId, {});
        throw error;
      }
    }
    // the server commits only when the card read back holds what it prepared; a failed read-back is not
    // forgotten: the card may hold the new key, and the next try's prepare answers alreadyWritten
    const back = await readerStep(ctx, 'verifying', () => issuerCall<MasterCardReadReply>(cardIssuerPaths.readMasterCard));
    await serverStep<GateSetupState>(ctx, 'confirming', apiPaths.gmSetSystemInit, { prepareId: prepared.prepareId, isSuccess: true, image: back.image });
    return i18n.t('cardSetup.init.done');
  };
}

/** The mother card swipe (MasterCardVerify): the master-card token, then the system key into this issuer. */
export function masterCardFlow() {
  return async (ctx: FlowContext): Promise<string> => {
    await readerStep(ctx, 'connecting', pairIssuer);
    const card = await readerStep(ctx, 'reading', () => issuerCall<MasterCardReadReply>(cardIssuerPaths.readMasterCard));
    const verified = await serverStep<MasterCardToken>(ctx, 'verifying', apiPaths.gmMasterCardVerify, { sysKeyCode: card.sysKeyCode, customerNo: card.customerNo, customerPwd: card.customerPwd });
    storage.masterCardToken.set(verified.token, verified.expiresIn);
    await loadSystemKey(ctx, true);
    return i18n.t('cardSetup.master.succeeded');
  };
}

/** Issuing the system key card (spec §2 /swiper-sys-secret) onto the blank card on the reader. */
export function keyCardFlow() {
  return async (ctx: FlowContext): Promise<string> => {
    await readerStep(ctx, 'connecting', pairIssuer);
    const blank = await readerStep(ctx, 'checking', () => issuerCall<CanIssueReply>(cardIssuerPaths.checkSystemKeyCardCanIssue, { cardKind: 11 }));
    const check = await serverStep<CanIssueCardReply>(ctx, 'checking', apiPaths.systemKeyCardCheckCanIssue, { fixedNo: blank.fixedNo }, master);
    if (!check.canIssue) throw new CardFlowError(i18n.t('cardSetup.cardAlreadyExists'), 0);
    const prepared = await serverStep<PreparedCardWrite>(ctx, 'preparing', apiPaths.systemKeyCardAdd, { fixedNo: blank.fixedNo }, master);
    await writePrepared(ctx, prepared, () => issuerCall(cardIssuerPaths.issueSystemKeyCard, { fixedNo: prepared.fixedNo, image: prepared.image }), apiPaths.gmSetIssueSecretCard);
    return i18n.t('cardSetup.keyCard.done');
  };
}

/** Issuing the super administrator's login card (spec §2 /create-superuser) with its card password. */
export function superAdminCardFlow(password: string, sealKey: string) {
  return async (ctx: FlowContext): Promise<string> => {
    await readerStep(ctx, 'connecting', pairIssuer);
    const blank = await readerStep(ctx, 'checking', () => issuerCall<CanIssueReply>(cardIssuerPaths.checkOprtLoginCardCanIssue, { cardKind: 11 }));
    const body: SuperAdminIssueRequest = { fixedNo: blank.fixedNo, oprtPwd: await passwordDigest(password, 'sm3'), sealedPwd: await sealPassword(password, sealKey) };
    const prepared = await serverStep<PreparedCardWrite>(ctx, 'preparing', apiPaths.issueSuperAdmin, body, master);
    await writePrepared(ctx, prepared, () => issuerCall(cardIssuerPaths.issueSuperAdminCard, { fixedNo: prepared.fixedNo, image: prepared.image }), apiPaths.gmSetIssueSuperAdminCard);
    return i18n.t('cardSetup.superAdmin.done');
  };
}
