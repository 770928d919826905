import { Type } from 'typebox';
import type { onRequestHookHandler } from 'fastify';
import { codes, customerNoPattern, passwordDigestPattern } from '@campus/contracts';
import { AppError, envelope } from '../../http/envelope.ts';
import { requiringToken } from '../../http/openapi.ts';

/** Request and reply schemas the card routes of the three card areas share (docs/cards.md). */
export const FixedNo = Type.String({ pattern: '^[0-9A-Fa-f]{8,20}$', description: "The card's fixed number (UID), 8 to 20 hex digits" });
export const CardImage = Type.String({ pattern: '^([0-9a-fA-F]{2}){1,256}$', description: 'A card image as the card issuer read it, hex, at most 256 bytes' });
export const Digest = Type.String({ pattern: passwordDigestPattern, description: 'Lowercase hex SM3 digest of the UTF-8 password' });
export const SealedPassword = Type.String({ minLength: 194, maxLength: 1200, pattern: '^[0-9a-fA-F]+$', description: 'The password SM2-sealed to the seal key of GetLoginPassordComplexity (C1C3C2 hex)' });
export const CustomerNo = Type.String({ pattern: customerNoPattern.source, description: '1 to 8 digits, no leading zero' });
export const PrepareId = Type.String({ pattern: '^[A-Za-z0-9_-]{32}$', description: 'The prepareId phase one answered' });
export const DevicePublicKey = Type.String({ pattern: '^04[0-9a-fA-F]{128}$', description: "The card issuer's SM2 public key (AddIdentity answers it)" });

/** What the card issuer's SignKeyChallenge answered: the server's challenge signed with the issuer's private key. */
export const SignedKeyChallengeFields = {
  challenge: Type.String({ pattern: '^[A-Za-z0-9_-]{43}$', description: 'The one-time challenge GetSysKeyChallenge answered for devicePublicKey' }),
  hostName: Type.String({ pattern: '^[A-Za-z0-9._-]{1,63}$', description: "The operator PC's name as the card issuer reports it (signed with the challenge)" }),
  signature: Type.String({ pattern: '^[0-9a-fA-F]{128}$', description: 'SM2 signature (SM3, default user id; r‖s hex) of the challenge and the host name, by the private key of devicePublicKey' }),
};

export const CardWriteConfirmBody = Type.Object({ prepareId: PrepareId, isSuccess: Type.Boolean({ description: 'Whether the card issuer wrote the prepared image' }) });

export const PreparedCardWrite = Type.Object({ prepareId: Type.String(), fixedNo: Type.String(), image: Type.String(), alreadyWritten: Type.Boolean() });
export const PreparedCardWriteReply = envelope(PreparedCardWrite);

export const GateSetupStateSchema = Type.Object({
  mjSystem: Type.Integer(),
  isGate: Type.Boolean(),
  isInit: Type.Boolean(),
  hasSecret: Type.Boolean(),
  isIssueSecretCard: Type.Boolean(),
  isIssueSuperAdminCard: Type.Boolean(),
  customerNo: Type.String(),
});

/** onRequest hook of every card route: notGateSystem (211) outside gate deployments, before anything else. */
export function gateOnly(isGate: boolean): onRequestHookHandler {
  return async () => {
    if (!isGate) throw new AppError(codes.notGateSystem);
  };
}

/** The master-card token in the `token` header (spec §6, §7): HTTP 401 with code 221 without a live one. */
export function makeRequireMasterCard(isLive: (token: string) => Promise<boolean>): onRequestHookHandler {
  return requiringToken(async (request) => {
    const header = request.headers.token;
    const token = Array.isArray(header) ? header[0] : header;
    if (!token || !(await isLive(token))) throw new AppError(codes.masterCardTokenInvalid, { status: 401 });
  });
}
