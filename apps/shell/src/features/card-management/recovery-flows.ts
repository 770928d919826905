import type { CardReadReply, CardRecoveryCheck, GateSetupState, SystemKeyCardCheck, SystemKeyRecoveryConfirm } from '@campus/contracts';
import { apiPaths, cardIssuerPaths, codes, managementCardKind } from '@campus/contracts';
import { issuerCall, pairIssuer } from '../../lib/cards/card-issuer.ts';
import { CardFlowError, readerStep, serverStep } from '../../lib/cards/card-flow.ts';
import type { FlowContext } from '../../lib/cards/card-flow.ts';
import { passwordDigest } from '../../lib/crypto.ts';
import { i18n } from '../../lib/i18n.ts';
import { forgetPrepared } from '../../lib/cards/prepared-card-write.ts';
import { asCardManager } from './card-manager-calls.ts';
import { wrongCardError } from './card-on-reader.ts';

/** A key card the server agreed may recover the system key: its fixed number and the recovery's prepareId. */
export interface RecoveryCheck {
  fixedNo: string;
  prepareId: string;
}

const cannotRecover = () => new CardFlowError(i18n.t('cardManagement.recovery.cannotRecover'), codes.keyCardCannotRecover);

/** Tells the server the checked recovery will not happen (isSuccess false). */
export function forgetRecovery(check: RecoveryCheck): Promise<void> {
  return forgetPrepared({
    url: apiPaths.keyCardRecoverySystemKey,
    body: (isSuccess) => ({ prepareId: check.prepareId, isSuccess, fixedNo: check.fixedNo }) satisfies SystemKeyRecoveryConfirm,
    options: asCardManager,
  });
}

/**
 * Recovery, first part: the card on the reader must be a system key card, and the server must know it as the key
 * card in use ("this key card cannot recover the system" otherwise). `onChecked` gets what the second part needs.
 */
export function checkRecoveryFlow(onChecked: (check: RecoveryCheck) => void) {
  return async (ctx: FlowContext): Promise<string> => {
    await readerStep(ctx, 'connecting', pairIssuer);
    const card = await readerStep(ctx, 'reading', () => issuerCall<SystemKeyCardCheck>(cardIssuerPaths.checkIsSystemKeyCard, { cardKind: managementCardKind }));
    // another kind of card: say which card is on the reader and that the system key card in use is wanted
    if (!card.isSystemKeyCard) throw await wrongCardError({ key: 'keyCardInUse' }, codes.keyCardCannotRecover);
    const check = await serverStep<CardRecoveryCheck>(ctx, 'checking', apiPaths.keyCardCheckCanRecovery, { fixedNo: card.fixedNo }, asCardManager);
    if (!check.canRecovery || !check.prepareId) throw cannotRecover();
    onChecked({ fixedNo: card.fixedNo, prepareId: check.prepareId });
    return i18n.t('cardManagement.recovery.checked');
  };
}

/** Whether a failed recovery may be tried again with another customer password (the server keeps the check). */
export function isWrongCustomerPassword(error: unknown): boolean {
  return error instanceof CardFlowError && error.code === codes.customerPasswordWrong;
}

/**
 * Recovery, second part: the issuer reads the checked key card, the server opens it with the customer password
 * (its SM3 digest) and restores its system key. A wrong password keeps the check for another try; any other
 * failure, or Cancel, forgets it.
 */
export function recoverSystemKeyFlow(check: RecoveryCheck, customerPassword: string) {
  return async (ctx: FlowContext): Promise<string> => {
    try {
      const customerPwd = await passwordDigest(customerPassword, 'sm3');
      const card = await readerStep(ctx, 'reading', () => issuerCall<CardReadReply>(cardIssuerPaths.recoverySystemKey, { cardKind: managementCardKind, cardFixedNo: check.fixedNo }));
      const confirm: SystemKeyRecoveryConfirm = { prepareId: check.prepareId, isSuccess: true, fixedNo: check.fixedNo, image: card.image, customerPwd };
      await serverStep<GateSetupState>(ctx, 'verifying', apiPaths.keyCardRecoverySystemKey, confirm, asCardManager);
    } catch (error) {
      if (!isWrongCustomerPassword(error)) await forgetRecovery(check);
      throw error;
    }
    return i18n.t('cardManagement.recovery.done');
  };
}
