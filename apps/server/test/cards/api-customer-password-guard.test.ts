import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sm2 } from 'sm-crypto-v2';
import { customerKey, makeMotherCard, readHeader, readMotherCard, recoverSystemKey, sm3Hex, sm4DecryptBlock, sm4EncryptBlock } from '@campus/card-crypto';
import { apiPaths, codes } from '@campus/contracts';
import type { CardRecoveryCheck, PreparedCardWrite, SystemKeyCardRow } from '@campus/contracts';
import { call, databases, startServer } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';
import { customerNo, customerPassword, gateEnv, hex, initialise, install, keyCardFixedNo, motherFixedNo, recoverFromMother, signedChallenge, swipeMother } from '../support/gate-helpers.ts';
import type { Installed } from '../support/gate-helpers.ts';

/**
 * Issue 46 item 3: every call that checks the customer password shares one lock-out, so that a guesser locked out of
 * one call cannot go on guessing through another (RecoverySystemKey answered 215 to every guess, without limit).
 */
describe.each(databases)('the customer password lock-out (%s)', (kind) => {
  let server: TestServer;
  let installed: Installed;
  let adminToken: string;
  const right = sm3Hex(customerPassword);
  const guess = (i: number) => sm3Hex(`Guess#${i}`);

  // a new card issuer each time, answering its signed key challenge as a real one does
  async function keyCardTrust(customerPwd: string) {
    const issuer = sm2.generateKeyPairHex();
    const signed = await signedChallenge(server, issuer);
    return call(server, 'POST', apiPaths.getGmSysKeyData, { devicePublicKey: issuer.publicKey, ...signed, fixedNo: keyCardFixedNo, image: hex(installed.keyCardImage), customerPwd }, { language: 'en-US' });
  }
  async function recovery(customerPwd: string) {
    const check = await call<CardRecoveryCheck>(server, 'POST', apiPaths.keyCardCheckCanRecovery, { fixedNo: keyCardFixedNo }, { token: adminToken });
    expect(check.body.data.canRecovery).toBe(true);
    const body = { prepareId: check.body.data.prepareId, isSuccess: true, fixedNo: keyCardFixedNo, image: hex(installed.keyCardImage), customerPwd };
    return call(server, 'POST', apiPaths.keyCardRecoverySystemKey, body, { token: adminToken, language: 'en-US' });
  }

  beforeAll(async () => {
    server = await startServer(kind, { env: gateEnv });
    installed = await install(server);
  });
  async function signIn(): Promise<void> {
    const login = await call<{ loginInfo: { token: string } }>(server, 'POST', apiPaths.webLogin, { user: { account: 'sysadmin', password: sm3Hex('Sysadmin#2026'), tenantCode: '1001' } });
    adminToken = login.body.data.loginInfo.token;
  }
  /** Past any lock of the test before (the longest is 15 minutes) and past the counters' memory (12 hours). */
  async function later(): Promise<void> {
    server.clock.advance(13 * 3600_000);
    await signIn();
  }
  beforeEach(later);
  afterAll(async () => {
    await server?.close();
  });

  it('RecoverySystemKey is limited: the fifth wrong customer password locks it, even for the right one', async () => {
    for (let i = 0; i < 4; i += 1) expect((await recovery(guess(i))).body).toMatchObject({ code: codes.customerPasswordWrong, data: { remainingAttempts: 4 - i } });
    const fifth = await recovery(guess(4));
    expect(fifth.body.code).toBe(codes.keyCardTrustLocked);
    expect(fifth.body.msg).toMatch(/^Too many wrong customer passwords: try again after /);
    expect((await recovery(right)).body.code).toBe(codes.keyCardTrustLocked);
    server.clock.advance(61_000);
    expect((await recovery(right)).body.code).toBe(0);
  });

  it('wrong ones on RecoverySystemKey lock GetGMSysKeyData out, and wrong ones on GetGMSysKeyData lock RecoverySystemKey', async () => {
    for (let i = 0; i < 5; i += 1) await recovery(guess(i));
    expect((await keyCardTrust(right)).body.code).toBe(codes.keyCardTrustLocked);

    await later();
    for (let i = 0; i < 5; i += 1) await keyCardTrust(guess(i));
    expect((await recovery(right)).body.code).toBe(codes.keyCardTrustLocked);
  });

  it('the calls count together: three wrong on one and two on the other are five', async () => {
    for (let i = 0; i < 3; i += 1) expect((await recovery(guess(i))).body.code).toBe(codes.customerPasswordWrong);
    expect((await keyCardTrust(guess(3))).body).toMatchObject({ code: codes.customerPasswordWrong, data: { remainingAttempts: 1 } });
    expect((await keyCardTrust(guess(4))).body.code).toBe(codes.keyCardTrustLocked);
    expect((await recovery(right)).body.code).toBe(codes.keyCardTrustLocked);
  });

  // Issue 46 item 5: a copy of the mother card's bytes made a master-card token, and with it an administrator card
  it('after the set-up a mother-card swipe (or a copy of its bytes) without the customer password is no token', async () => {
    const copy = Buffer.from(installed.motherImage);
    const alone = await swipeMother(server, copy, undefined, null);
    expect(alone.body).toMatchObject({ code: codes.customerPasswordRequired, msg: 'After the set-up the mother card needs the customer password: type it, then swipe again', data: null });
    const wrong = await swipeMother(server, copy, undefined, guess(1));
    expect(wrong.body).toMatchObject({ code: codes.customerPasswordWrong, data: { remainingAttempts: 4 } });
    // without a token the card-management chain of the attack stops at its first call
    expect((await call(server, 'POST', apiPaths.adminCardGetIssueData, { oprtId: '1', fixedNo: '04AB0009', oprtPwd: right, sealedPwd: 'x' })).body.code).toBe(codes.masterCardTokenInvalid);
    const typed = await swipeMother(server, copy, undefined, right);
    expect(typed.body.code).toBe(0);
    expect(typed.body.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('the swipe’s wrong customer passwords count in the same lock-out as the other calls', async () => {
    for (let i = 0; i < 3; i += 1) expect((await swipeMother(server, installed.motherImage, undefined, guess(i))).body.code).toBe(codes.customerPasswordWrong);
    await recovery(guess(3));
    expect((await swipeMother(server, installed.motherImage, undefined, guess(4))).body.code).toBe(codes.keyCardTrustLocked);
    expect((await swipeMother(server, installed.motherImage, undefined, right)).body.code).toBe(codes.keyCardTrustLocked);
    expect((await keyCardTrust(right)).body.code).toBe(codes.keyCardTrustLocked);
  });
});

describe.each(databases)('the mother-card swipe during the set-up (%s)', (kind) => {
  let server: TestServer;
  afterAll(async () => {
    await server?.close();
  });

  it('needs no customer password while the set-up is unfinished: the operator typed it at initialisation', async () => {
    server = await startServer(kind, { env: gateEnv });
    const { motherImage } = await initialise(server);
    expect((await swipeMother(server, motherImage, undefined, null)).body.code).toBe(0);
  });
});

// Issue 46 item 4: K_cust by argon2id; the cards and the installation sealed before still work and are resealed
describe.each(databases)('the customer key at the server (%s)', (kind) => {
  let server: TestServer;
  const digest = sm3Hex(customerPassword);
  const prepareInit = (password: string, image: Buffer) =>
    call<PreparedCardWrite>(server, 'POST', apiPaths.addGmInitData, { customerNo, customerPwd: sm3Hex(password), fixedNo: motherFixedNo, image: hex(image) }, { language: 'zh-MO' });
  const installation = () => server.handle.db.selectFrom('gate_installation').selectAll().executeTakeFirstOrThrow();
  afterAll(async () => {
    await server?.close();
  });

  it('initialisation refuses a common customer password, before it looks at the card', async () => {
    server = await startServer(kind, { env: gateEnv });
    for (const common of ['Password123', 'QWERTYUIOP', '1234567890']) {
      const refused = await prepareInit(common, makeMotherCard({ customerNo, customerPwdDigest: sm3Hex(common), derivation: 'pbkdf2-sm3' }));
      expect(refused.body).toEqual({ code: codes.customerPasswordWeak, msg: '該客戶密碼屬於最常見的密碼，不予接受：請向供應商索取客戶密碼更強的母卡', data: null });
    }
    // the same answer whether or not it is the card's password
    expect((await prepareInit('admin@123', makeMotherCard({ customerNo, customerPwdDigest: digest, derivation: 'pbkdf2-sm3' }))).body.code).toBe(codes.customerPasswordWeak);
  });

  it('a vendor card made the old way is initialised with argon2id: the mother card and the system key card', async () => {
    const vendorCard = makeMotherCard({ customerNo, customerPwdDigest: digest, derivation: 'pbkdf2-sm3' });
    expect(readHeader(vendorCard)?.customerKeyDerivation).toBe('pbkdf2-sm3');
    const prepared = await prepareInit(customerPassword, vendorCard);
    expect(prepared.body.code).toBe(0);
    const written = Buffer.from(prepared.body.data.image, 'hex');
    expect(readMotherCard(written).derivation).toBe('argon2id');
    expect((await call(server, 'POST', apiPaths.gmSetSystemInit, { prepareId: prepared.body.data.prepareId, isSuccess: true, image: prepared.body.data.image })).body.code).toBe(0);
    expect((await installation()).customer_key_derivation).toBe('argon2id');
    const token = (await swipeMother(server, written)).body.data.token;
    const key = await call<PreparedCardWrite>(server, 'POST', apiPaths.systemKeyCardAdd, { fixedNo: keyCardFixedNo }, { token });
    const keyCard = Buffer.from(key.body.data.image, 'hex');
    expect(readHeader(keyCard)?.customerKeyDerivation).toBe('argon2id');
    expect(recoverSystemKey(keyCard, keyCardFixedNo, digest).equals(recoverFromMother(written))).toBe(true);
  });
});

describe.each(databases)('an installation sealed with the old customer key (%s)', (kind) => {
  let server: TestServer;
  const digest = sm3Hex(customerPassword);
  afterAll(async () => {
    await server?.close();
  });

  it('keeps working, and its seal is made again with argon2id at the next right customer password', async () => {
    server = await startServer(kind, { env: gateEnv });
    const installed = await install(server);
    // what an installation of before holds (migration 0022 marks it so): the system key sealed under PBKDF2's K_cust
    const systemKey = recoverFromMother(installed.motherImage);
    const row = await server.handle.db.selectFrom('gate_installation').selectAll().executeTakeFirstOrThrow();
    const salt = Buffer.from(row.mother_card_salt, 'hex');
    const oldSeal = sm4EncryptBlock(customerKey(customerNo, digest, salt, 'pbkdf2-sm3'), systemKey).toString('hex');
    await server.handle.db.updateTable('gate_installation').set({ customer_sealed_key: oldSeal, customer_key_derivation: 'pbkdf2-sm3' }).execute();

    // a wrong password changes nothing; the right one is told by the old seal, which it then replaces
    expect((await swipeMother(server, installed.motherImage, undefined, sm3Hex('Guess#2026'))).body.code).toBe(codes.customerPasswordWrong);
    expect((await server.handle.db.selectFrom('gate_installation').selectAll().executeTakeFirstOrThrow()).customer_sealed_key).toBe(oldSeal);
    const swipe = await swipeMother(server, installed.motherImage);
    expect(swipe.body.code).toBe(0);
    const after = await server.handle.db.selectFrom('gate_installation').selectAll().executeTakeFirstOrThrow();
    expect(after.customer_key_derivation).toBe('argon2id');
    expect(sm4DecryptBlock(customerKey(customerNo, digest, salt, 'argon2id'), Buffer.from(after.customer_sealed_key, 'hex')).equals(systemKey)).toBe(true);

    // the next system key card written carries the new seal
    const token = swipe.body.data.token;
    const cards = await call<SystemKeyCardRow[]>(server, 'POST', apiPaths.keyCardSearch, { page: { index: 1, size: 15 }, filters: [], orderBys: [] }, { token });
    expect((await call(server, 'POST', apiPaths.keyCardLoss, { id: cards.body.data[0]!.id }, { token })).body.code).toBe(0);
    const next = await call<PreparedCardWrite>(server, 'POST', apiPaths.systemKeyCardAdd, { fixedNo: '04AA0009' }, { token });
    expect(next.body.code).toBe(0);
    const image = Buffer.from(next.body.data.image, 'hex');
    expect(readHeader(image)?.customerKeyDerivation).toBe('argon2id');
    expect(recoverSystemKey(image, '04AA0009', digest).equals(systemKey)).toBe(true);
    // the mother card of before still swipes with the password
    expect((await swipeMother(server, installed.motherImage)).body.code).toBe(0);
  });
});
