import type { GateSetupState, MasterCardToken, MasterCardReadReply, MasterCardVerifyRequest, PreparedCardWrite } from '@campus/contracts';
import { apiPaths, cardIssuerPaths, codes } from '@campus/contracts';
import { issueAdminCard } from '../../lib/cards/admin-card-flow.ts';
import type { AdminCardIssuePaths } from '../../lib/cards/admin-card-flow.ts';
import { issuerCall, pairIssuer } from '../../lib/cards/card-issuer.ts';
import { CardFlowError, readerStep, serverStep } from '../../lib/cards/card-flow.ts';
import type { FlowContext } from '../../lib/cards/card-flow.ts';
import { passwordDigest } from '../../lib/crypto.ts';
import { i18n } from '../../lib/i18n.ts';
import { loadSystemKey } from '../../lib/cards/issuer-key.ts';
import { forgetPrepared, writeConfirm } from '../../lib/cards/prepared-card-write.ts';
import * as storage from '../../lib/storage.ts';

const master = { useMasterToken: true } as const;

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
        await forgetPrepared(writeConfirm(prepared, apiPaths.gmSetSystemInit, {}));
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

/** What GetSysKeyData answers a mother-card swipe after the set-up: the swipe succeeded, the issuer gets no key by it. */
const afterSetUpRefusals: readonly number[] = [codes.readerNotTrusted, codes.issuerTrustExpired, codes.issuerTrustRevoked];

/**
 * The mother card swipe (MasterCardVerify): the master-card token, then the system key into this issuer. After the
 * set-up `customerPassword` is what the operator typed (only its SM3 digest is sent); null before.
 */
export function masterCardFlow(customerPassword: string | null = null) {
  return async (ctx: FlowContext): Promise<string> => {
    const { devicePublicKey } = await readerStep(ctx, 'connecting', pairIssuer);
    const card = await readerStep(ctx, 'reading', () => issuerCall<MasterCardReadReply>(cardIssuerPaths.readMasterCard));
    const request: MasterCardVerifyRequest = { sysKeyCode: card.sysKeyCode, customerNo: card.customerNo, customerPwd: card.customerPwd, devicePublicKey };
    if (customerPassword !== null) request.customerPwdDigest = await passwordDigest(customerPassword, 'sm3');
    const verified = await serverStep<MasterCardToken>(ctx, 'verifying', apiPaths.gmMasterCardVerify, request);
    storage.masterCardToken.set(verified.token, verified.expiresIn);
    try {
      await loadSystemKey(ctx, true);
    } catch (error) {
      // after the set-up the mother card trusts no new card issuer (docs/cards.md): this reader gets the key from
      // the system key card with the customer password when a step needs it; the swipe itself succeeded
      // (an issuer trusted before whose trust ended or was revoked alike)
      if (!(error instanceof CardFlowError) || !afterSetUpRefusals.includes(error.code)) throw error;
    }
    return i18n.t('cardSetup.master.succeeded');
  };
}

const superAdminCardPaths: AdminCardIssuePaths = { prepare: apiPaths.issueSuperAdmin, write: cardIssuerPaths.issueSuperAdminCard, confirm: apiPaths.gmSetIssueSuperAdminCard };

/** Issuing the super administrator's login card (spec §2 /create-superuser) with its card password. */
export function superAdminCardFlow(password: string, sealKey: string) {
  return async (ctx: FlowContext): Promise<string> => {
    await issueAdminCard(ctx, { paths: superAdminCardPaths, options: master, password, sealKey });
    return i18n.t('cardSetup.superAdmin.done');
  };
}
