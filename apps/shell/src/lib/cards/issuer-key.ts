import type { SignedKeyChallenge, SysKeyChallenge, SysKeyDataReply } from '@campus/contracts';
import { apiPaths, cardIssuerPaths, readerCodes } from '@campus/contracts';
import { issuerCall, issuerPublicKey } from './card-issuer.ts';
import { CardFlowError, readerStep, serverStep } from './card-flow.ts';
import type { CardPhase, FlowContext } from './card-flow.ts';
import * as storage from '../storage.ts';

/**
 * The issuer's proof that it holds its device key (issue 46 item 1): a one-time challenge of the server, signed by
 * the issuer with the PC's name. The key calls (GetSysKeyData, GetGMSysKeyData) take it with the public key.
 */
export async function signedKeyChallenge(ctx: FlowContext, devicePublicKey: string): Promise<SignedKeyChallenge> {
  const { challenge } = await serverStep<SysKeyChallenge>(ctx, 'loadingKey', apiPaths.getSysKeyChallenge, { devicePublicKey });
  return readerStep(ctx, 'loadingKey', () => issuerCall<SignedKeyChallenge>(cardIssuerPaths.signKeyChallenge, { challenge }));
}

/**
 * Loads the system key into the card issuer: the server seals it to the issuer's own public key (only for an
 * issuer whose trust is in effect; a master-card token during the set-up trusts it or renews the trust) once the
 * issuer signed its challenge; the issuer opens it and keeps it in memory.
 */
export async function loadSystemKey(ctx: FlowContext, withMasterToken: boolean): Promise<void> {
  const devicePublicKey = await readerStep(ctx, 'connecting', issuerPublicKey);
  const signed = await signedKeyChallenge(ctx, devicePublicKey);
  const { sysKeyData } = await serverStep<SysKeyDataReply>(ctx, 'loadingKey', apiPaths.getSysKeyData, { devicePublicKey, ...signed }, { useMasterToken: withMasterToken });
  await readerStep(ctx, 'loadingKey', () => issuerCall(cardIssuerPaths.init, { sysKeyData }));
}

/**
 * The gateway check of spec §4 "Tenant selection and gateway check": SetGateWay to this server; when the issuer
 * has no system key yet (990207), the key is fetched and pushed to it, and the gateway checked again.
 */
export async function checkGateway(ctx: FlowContext): Promise<void> {
  const setGateway = () => issuerCall(cardIssuerPaths.setGateway, { gatewayAddr: window.location.origin });
  try {
    await readerStep(ctx, 'connecting', setGateway);
    return;
  } catch (error) {
    if (!(error instanceof CardFlowError) || error.code !== readerCodes.noSystemKey) throw error;
  }
  await loadSystemKey(ctx, false);
  await readerStep(ctx, 'connecting', setGateway);
}

/**
 * A reader step that opens or writes one of this installation's cards, which needs the system key in the card
 * issuer: when the issuer holds none (990207, it was restarted) the key is loaded (trusted by the master-card token
 * when there is one, else by an earlier trust of this issuer) and the step tried once more.
 */
export async function readerStepWithKey<T>(ctx: FlowContext, phase: CardPhase, run: () => Promise<T>): Promise<T> {
  try {
    return await readerStep(ctx, phase, run);
  } catch (error) {
    if (!(error instanceof CardFlowError) || error.code !== readerCodes.noSystemKey) throw error;
  }
  await loadSystemKey(ctx, Boolean(storage.masterCardToken.get()));
  return readerStep(ctx, phase, run);
}
