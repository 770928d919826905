import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sm2 } from 'sm-crypto-v2';
import { sm3Hex } from '@campus/card-crypto';
import { apiPaths, codes } from '@campus/contracts';
import type { CardRecoveryCheck } from '@campus/contracts';
import { call, databases, startServer } from './helpers.ts';
import type { TestServer } from './helpers.ts';
import { customerPassword, gateEnv, hex, initialise, install, keyCardFixedNo, swipeMother } from './gate-helpers.ts';
import type { Installed } from './gate-helpers.ts';

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

  const keyCardTrust = (customerPwd: string) =>
    call(server, 'POST', apiPaths.getGmSysKeyData, { devicePublicKey: sm2.generateKeyPairHex().publicKey, fixedNo: keyCardFixedNo, image: hex(installed.keyCardImage), customerPwd }, { language: 'en-US' });
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
