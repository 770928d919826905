import { expect } from 'vitest';
import { sm2 } from 'sm-crypto-v2';
import { customerKey, makeMotherCard, readMotherCard, signIssuerChallenge, sm3Hex, sm4DecryptBlock } from '@campus/card-crypto';
import { apiPaths } from '@campus/contracts';
import type { GateSetupState, PasswordComplexity, PreparedCardWrite, SignedKeyChallenge, SysKeyChallenge } from '@campus/contracts';
import { call } from './helpers.ts';
import type { CallOptions, TestServer } from './helpers.ts';

/** A server the calls go to: a test server, or a node process (server-nodes.ts). */
type Server = Pick<TestServer, 'url'>;

/** A gate deployment's set-up as the API tests drive it (the images are what the card issuer would write). */
export const customerNo = '10001';
export const customerPassword = 'Customer#2026';
export const motherFixedNo = 'A1B2C3D4';
export const keyCardFixedNo = '04AA0001';
export const adminCardFixedNo = '04AB0002';
export const cardPassword = 'Card#2026a';

export const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
export const gateEnv = { MJ_SYSTEM: '21' };

export async function state(server: Server): Promise<GateSetupState> {
  return (await call<GateSetupState>(server, 'POST', apiPaths.gmIsSystemInit)).body.data;
}

export async function sealed(server: Server, password: string): Promise<string> {
  const complexity = await call<PasswordComplexity>(server, 'GET', apiPaths.passwordComplexity);
  return sm2.doEncrypt(password, complexity.body.data.sealKey, 1);
}

/** What a set-up that got as far as `step` leaves: the images the card issuer would have written. */
export interface Installed {
  motherImage: Buffer;
  masterToken: string;
  keyCardImage: Buffer;
  adminCardImage: Buffer;
}

export async function initialise(server: Server): Promise<{ motherImage: Buffer }> {
  const blankMother = makeMotherCard({ customerNo, customerPwdDigest: sm3Hex(customerPassword) });
  const prepared = await call<PreparedCardWrite>(server, 'POST', apiPaths.addGmInitData, { customerNo, customerPwd: sm3Hex(customerPassword), fixedNo: motherFixedNo, image: hex(blankMother) });
  expect(prepared.body.code).toBe(0);
  const confirmed = await call(server, 'POST', apiPaths.gmSetSystemInit, { prepareId: prepared.body.data.prepareId, isSuccess: true, image: prepared.body.data.image });
  expect(confirmed.body.code).toBe(0);
  return { motherImage: Buffer.from(prepared.body.data.image, 'hex') };
}

/** The card issuer the tests' mother-card swipes are read by (a master-card token names it). */
export const testIssuer = sm2.generateKeyPairHex();

/** A card issuer's key pair, as its device-key.json holds it. */
export type IssuerKeys = { publicKey: string; privateKey: string };

/** What the card issuer `keys` answers to SignKeyChallenge for a fresh challenge of the server. */
export async function signedChallenge(server: Server, keys: IssuerKeys, hostName = 'operator-pc'): Promise<SignedKeyChallenge> {
  const reply = await call<SysKeyChallenge>(server, 'POST', apiPaths.getSysKeyChallenge, { devicePublicKey: keys.publicKey });
  expect(reply.body.code, reply.body.msg).toBe(0);
  const { challenge } = reply.body.data;
  return { challenge, hostName, signature: signIssuerChallenge(keys.privateKey, keys.publicKey, challenge, hostName) };
}

/** GetSysKeyData as the shell sends it for the issuer `keys`: its public key and a signed challenge. */
export async function fetchKey(server: Server, keys: IssuerKeys, options: CallOptions = {}) {
  return call<{ sysKeyData: string }>(server, 'POST', apiPaths.getSysKeyData, { devicePublicKey: keys.publicKey, ...(await signedChallenge(server, keys)) }, options);
}

/** A mother-card swipe with the customer password typed (needed after the set-up; `null` types none). */
export async function swipeMother(server: Server, motherImage: Buffer, devicePublicKey: string = testIssuer.publicKey, customerPwdDigest: string | null = sm3Hex(customerPassword)) {
  const card = readMotherCard(motherImage);
  const typed = customerPwdDigest === null ? {} : { customerPwdDigest };
  return call<{ token: string; expiresIn: number }>(server, 'POST', apiPaths.gmMasterCardVerify, { sysKeyCode: card.sysKeyCode, customerNo: card.customerNo, customerPwd: card.proof, devicePublicKey, ...typed }, { language: 'en-US' });
}

export async function install(server: Server): Promise<Installed> {
  const { motherImage } = await initialise(server);
  const masterToken = (await swipeMother(server, motherImage)).body.data.token;
  const key = await call<PreparedCardWrite>(server, 'POST', apiPaths.systemKeyCardAdd, { fixedNo: keyCardFixedNo }, { token: masterToken });
  expect(key.body.code).toBe(0);
  expect((await call(server, 'POST', apiPaths.gmSetIssueSecretCard, { prepareId: key.body.data.prepareId, isSuccess: true }, { token: masterToken })).body.code).toBe(0);
  const admin = await call<PreparedCardWrite>(server, 'POST', apiPaths.issueSuperAdmin, { fixedNo: adminCardFixedNo, oprtPwd: sm3Hex(cardPassword), sealedPwd: await sealed(server, cardPassword) }, { token: masterToken });
  expect(admin.body.code).toBe(0);
  expect((await call(server, 'POST', apiPaths.gmSetIssueSuperAdminCard, { prepareId: admin.body.data.prepareId, isSuccess: true }, { token: masterToken })).body.code).toBe(0);
  return { motherImage, masterToken, keyCardImage: Buffer.from(key.body.data.image, 'hex'), adminCardImage: Buffer.from(admin.body.data.image, 'hex') };
}

export function cardLogin(server: Server, image: Buffer, extra: Record<string, unknown> = {}, fixedNo = adminCardFixedNo) {
  return call<{ token: string; tenantCode: string }>(server, 'POST', apiPaths.cardLogin, { cardKind: 11, fixedNo, image: hex(image), ...extra }, { language: 'en-US' });
}


/** The system key, as the customer recovers it from the mother card with the customer password (docs/cards.md K_cust). */
export function recoverFromMother(motherImage: Buffer): Buffer {
  const card = readMotherCard(motherImage);
  if (!card.sealedSystemKey) throw new Error('the mother card is not initialised');
  return sm4DecryptBlock(customerKey(card.customerNo, sm3Hex(customerPassword), card.cardSalt, card.derivation), card.sealedSystemKey);
}
