import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sm2 } from 'sm-crypto-v2';
import { issuerDeviceId, signIssuerChallenge, sm3Hex } from '@campus/card-crypto';
import { apiPaths, codeMessage, codes } from '@campus/contracts';
import type { OperationLogRow, SysKeyChallenge, TrustedIssuerRow } from '@campus/contracts';
import { call, databases, startServer } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';
import { customerPassword, fetchKey, gateEnv, hex, initialise, install, keyCardFixedNo, signedChallenge, swipeMother, testIssuer } from '../support/gate-helpers.ts';
import type { Installed, IssuerKeys } from '../support/gate-helpers.ts';

const hour = 3_600_000;
const languages = ['en-US', 'zh-CN', 'zh-MO'] as const;

/**
 * Issue 46 item 1 (docs/cards.md "Trusted issuers"): the issuer's device-key.json is no master key. A key fetch
 * proves the private key with a signed one-time challenge, a trust ends (ISSUER_TRUST_HOURS) and a system
 * administrator can revoke it; every fetch, trust, refusal and revocation is logged installation-wide and counted.
 */
describe.each(databases)('the registry of trusted card issuers (%s)', (kind) => {
  let server: TestServer;
  let installed: Installed;

  async function signInAdmin(account: string, password: string): Promise<string> {
    const reply = await call<{ loginInfo: { token: string } }>(server, 'POST', apiPaths.webLogin, { user: { account, password: sm3Hex(password), tenantCode: '1001' } });
    expect(reply.body.code).toBe(0);
    return reply.body.data.loginInfo.token;
  }
  async function keyLog(): Promise<string[]> {
    const reply = await call<OperationLogRow[]>(server, 'POST', apiPaths.operationLogSearch, { page: { index: 1, size: 200 } }, { token: await signInAdmin('sysadmin', 'Sysadmin#2026'), language: 'en-US' });
    return reply.body.data.filter((row) => row.action === 'card-issuer-key' || row.action === 'card-issuer-revoke').map((row) => `${row.action} ${row.result} ${row.account} ${row.tenantCode} ${row.detail ?? ''}`);
  }
  async function registry(): Promise<TrustedIssuerRow[]> {
    const reply = await call<TrustedIssuerRow[]>(server, 'POST', apiPaths.trustedIssuerList, undefined, { token: await signInAdmin('sysadmin', 'Sysadmin#2026') });
    expect(reply.body.code).toBe(0);
    return reply.body.data;
  }
  const rowOf = async (keys: IssuerKeys) => (await registry()).find((row) => row.deviceId === issuerDeviceId(keys.publicKey));
  async function metric(series: string): Promise<number> {
    const text = (await call(server, 'GET', '/metrics')).text;
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line ? Number(line.split(' ')[1]) : 0;
  }
  const fetches = (result: string) => metric(`campus_issuer_key_fetches_total{result="${result}"}`);
  /** The system key card with the customer password trusts (or renews) the issuer `keys`. */
  const keyCardTrust = async (keys: IssuerKeys, hostName = 'operator-pc') =>
    call<{ sysKeyData: string }>(server, 'POST', apiPaths.getGmSysKeyData, { devicePublicKey: keys.publicKey, ...(await signedChallenge(server, keys, hostName)), fixedNo: keyCardFixedNo, image: hex(installed.keyCardImage), customerPwd: sm3Hex(customerPassword) });
  /** A fresh minute: the challenge limits count per minute and the test clock stands still. */
  const nextMinute = () => server.clock.advance(61_000);

  beforeAll(async () => {
    server = await startServer(kind, { env: { ...gateEnv, METRICS: 'on' } });
    installed = await install(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  const operatorPc = sm2.generateKeyPairHex();

  it('a trust lasts a working day: a copy of device-key.json fetches the key until then, and is refused after it in the caller’s language', async () => {
    expect((await keyCardTrust(operatorPc, 'FRONT-DESK-1')).body.code).toBe(0);
    const trusted = (await rowOf(operatorPc))!;
    expect(trusted).toMatchObject({ hostName: 'FRONT-DESK-1', trustedBy: `key-card:${keyCardFixedNo}`, clientIp: '127.0.0.1', state: 'trusted', revokedAt: null });
    expect(trusted.expiresAt - trusted.trustedAt).toBe(10 * hour);

    // the copy: both keys of the file, on another PC
    const copy: IssuerKeys = { publicKey: operatorPc.publicKey, privateKey: operatorPc.privateKey };
    server.clock.advance(10 * hour - 60_000);
    expect((await fetchKey(server, copy)).body.code).toBe(0);
    const beforeExpiry = (await rowOf(operatorPc))!;
    const expiredBefore = await fetches('expired');
    server.clock.advance(60_000);
    for (const language of languages) {
      const refused = await fetchKey(server, copy, { language });
      expect(refused.body).toEqual({ code: codes.issuerTrustExpired, msg: codeMessage(codes.issuerTrustExpired, language), data: null });
    }
    // no trace but a log line (and a count): the registry is as it was, with the state it is in now
    expect(await rowOf(operatorPc)).toEqual({ ...beforeExpiry, state: 'expired' });
    expect(await fetches('expired')).toBe(expiredBefore + 3);
    expect(await keyLog()).toContain(`card-issuer-key refused   device ${issuerDeviceId(copy.publicKey)} (operator-pc): trust expired`);
  });

  it('renewing needs what the first trust needed: the system key card with the customer password', async () => {
    nextMinute();
    const renewedBefore = await fetches('renewed');
    expect((await keyCardTrust(operatorPc, 'FRONT-DESK-1')).body.code).toBe(0);
    const renewed = (await rowOf(operatorPc))!;
    expect(renewed.state).toBe('trusted');
    expect(renewed.trustedAt).toBeGreaterThan(renewed.firstTrustedAt);
    expect(renewed.expiresAt).toBe(renewed.trustedAt + 10 * hour);
    expect(await fetches('renewed')).toBe(renewedBefore + 1);
    expect((await fetchKey(server, operatorPc)).body.code).toBe(0);
    const log = await keyLog();
    expect(log).toContain(`card-issuer-key success   device ${issuerDeviceId(operatorPc.publicKey)} (FRONT-DESK-1): renewed by key-card:${keyCardFixedNo}`);
    expect(log).toContain(`card-issuer-key success   device ${issuerDeviceId(operatorPc.publicKey)} (operator-pc): key fetched`);
    // a fetch records the name the issuer reports now: a copy on another PC shows there
    expect((await rowOf(operatorPc))!.hostName).toBe('operator-pc');
  });

  it('a fetch without a valid signed challenge is refused: knowing the public key, or an old signature, is not enough', async () => {
    nextMinute();
    const deviceId = issuerDeviceId(operatorPc.publicKey);
    const before = await rowOf(operatorPc);
    const challengeBefore = await fetches('challenge');
    const fresh = async () => (await call<SysKeyChallenge>(server, 'POST', apiPaths.getSysKeyChallenge, { devicePublicKey: operatorPc.publicKey })).body.data;
    const attacker = sm2.generateKeyPairHex();
    const fetchWith = (body: Record<string, unknown>) => call(server, 'POST', apiPaths.getSysKeyData, { devicePublicKey: operatorPc.publicKey, hostName: 'operator-pc', ...body }, { language: 'zh-MO' });

    // signed by another key
    const one = await fresh();
    expect((await fetchWith({ challenge: one.challenge, signature: signIssuerChallenge(attacker.privateKey, attacker.publicKey, one.challenge, 'operator-pc') })).body.code).toBe(codes.issuerChallengeInvalid);
    // a challenge the server never made
    const made = 'B'.repeat(43);
    expect((await fetchWith({ challenge: made, signature: signIssuerChallenge(operatorPc.privateKey, operatorPc.publicKey, made, 'operator-pc') })).body.code).toBe(codes.issuerChallengeInvalid);
    // the name changed after signing
    const two = await fresh();
    expect((await fetchWith({ challenge: two.challenge, hostName: 'other-pc', signature: signIssuerChallenge(operatorPc.privateKey, operatorPc.publicKey, two.challenge, 'operator-pc') })).body.code).toBe(codes.issuerChallengeInvalid);
    // a challenge made for another issuer
    const elsewhere = (await call<SysKeyChallenge>(server, 'POST', apiPaths.getSysKeyChallenge, { devicePublicKey: attacker.publicKey })).body.data;
    expect((await fetchWith({ challenge: elsewhere.challenge, signature: signIssuerChallenge(operatorPc.privateKey, operatorPc.publicKey, elsewhere.challenge, 'operator-pc') })).body.code).toBe(codes.issuerChallengeInvalid);
    // a signature used once (a replay), and one older than a minute
    const three = await fresh();
    const signature = signIssuerChallenge(operatorPc.privateKey, operatorPc.publicKey, three.challenge, 'operator-pc');
    expect((await fetchWith({ challenge: three.challenge, signature })).body.code).toBe(0);
    const replay = await fetchWith({ challenge: three.challenge, signature });
    expect(replay.body).toEqual({ code: codes.issuerChallengeInvalid, msg: codeMessage(codes.issuerChallengeInvalid, 'zh-MO'), data: null });
    const four = await fresh();
    nextMinute();
    expect((await fetchWith({ challenge: four.challenge, signature: signIssuerChallenge(operatorPc.privateKey, operatorPc.publicKey, four.challenge, 'operator-pc') })).body.code).toBe(codes.issuerChallengeInvalid);
    // none of them fetched anything or changed the registry; each is a log line and a count
    expect({ ...(await rowOf(operatorPc)), lastFetchAt: 0 }).toEqual({ ...before, lastFetchAt: 0 });
    expect(await fetches('challenge')).toBe(challengeBefore + 6);
    expect((await keyLog()).filter((line) => line === `card-issuer-key refused   device ${deviceId} (operator-pc): no valid signed challenge`).length).toBeGreaterThanOrEqual(4);
    // a body without the signed challenge is a bad request
    expect((await call(server, 'POST', apiPaths.getSysKeyData, { devicePublicKey: operatorPc.publicKey })).body.code).toBe(codes.badRequest);
  });

  it('key requests are limited per issuer and per address, on every server node alike (counted in the database)', async () => {
    nextMinute();
    const limitedBefore = await fetches('rate_limited');
    const device = sm2.generateKeyPairHex();
    for (let i = 0; i < 10; i += 1) expect((await call(server, 'POST', apiPaths.getSysKeyChallenge, { devicePublicKey: device.publicKey })).body.code).toBe(0);
    const eleventh = await call(server, 'POST', apiPaths.getSysKeyChallenge, { devicePublicKey: device.publicKey }, { language: 'zh-CN' });
    expect(eleventh.body).toEqual({ code: codes.issuerKeyFetchTooOften, msg: codeMessage(codes.issuerKeyFetchTooOften, 'zh-CN'), data: null });
    // other issuers from this address: 30 a minute in all
    for (let i = 0; i < 20; i += 1) expect((await call(server, 'POST', apiPaths.getSysKeyChallenge, { devicePublicKey: sm2.generateKeyPairHex().publicKey })).body.code).toBe(0);
    expect((await call(server, 'POST', apiPaths.getSysKeyChallenge, { devicePublicKey: operatorPc.publicKey })).body.code).toBe(codes.issuerKeyFetchTooOften);
    expect(await fetches('rate_limited')).toBe(limitedBefore + 2);
    expect(await keyLog()).toContain(`card-issuer-key refused   device ${issuerDeviceId(device.publicKey)}: too many key requests`);
    // a minute later both may ask again
    nextMinute();
    expect((await call(server, 'POST', apiPaths.getSysKeyChallenge, { devicePublicKey: device.publicKey })).body.code).toBe(0);
    expect((await fetchKey(server, operatorPc)).body.code).toBe(0);
  });

  it('a system administrator sees the registry and revokes an issuer for good: its copies get nothing, not even with the key card', async () => {
    nextMinute();
    const staff = await signInAdmin('staff', 'Staff#2026');
    const admin = await signInAdmin('sysadmin', 'Sysadmin#2026');
    expect((await call(server, 'POST', apiPaths.trustedIssuerList, undefined, { token: staff })).body.code).toBe(codes.noPermission);
    expect((await call(server, 'POST', apiPaths.trustedIssuerRevoke, { deviceId: issuerDeviceId(operatorPc.publicKey) }, { token: staff })).body.code).toBe(codes.noPermission);
    const unknown = await call(server, 'POST', apiPaths.trustedIssuerRevoke, { deviceId: '0123456789ABCDEF' }, { token: admin, language: 'en-US' });
    expect(unknown.body).toEqual({ code: codes.trustedIssuerUnknown, msg: 'No trusted card reader has the device id 0123456789ABCDEF', data: null });

    const deviceId = issuerDeviceId(operatorPc.publicKey);
    const revocationsBefore = await metric('campus_issuer_revocations_total');
    const revokedBefore = await fetches('revoked');
    expect((await call(server, 'POST', apiPaths.trustedIssuerRevoke, { deviceId }, { token: admin })).body.code).toBe(0);
    const revoked = (await rowOf(operatorPc))!;
    expect(revoked).toMatchObject({ state: 'revoked', revokedBy: 'sysadmin' });
    expect(revoked.revokedAt).toBe(server.clock.now());
    expect(await metric('campus_issuer_revocations_total')).toBe(revocationsBefore + 1);
    // again: nothing more happens
    expect((await call(server, 'POST', apiPaths.trustedIssuerRevoke, { deviceId }, { token: admin })).body.code).toBe(0);
    expect(await metric('campus_issuer_revocations_total')).toBe(revocationsBefore + 1);

    for (const language of languages) {
      const refused = await fetchKey(server, operatorPc, { language });
      expect(refused.body).toEqual({ code: codes.issuerTrustRevoked, msg: codeMessage(codes.issuerTrustRevoked, language), data: null });
    }
    // the key card with the customer password does not trust that key again (a copy of it would come back with it)
    expect((await keyCardTrust(operatorPc)).body.code).toBe(codes.issuerTrustRevoked);
    expect(await rowOf(operatorPc)).toEqual(revoked);
    expect(await fetches('revoked')).toBe(revokedBefore + 4);
    const log = await keyLog();
    expect(log).toContain(`card-issuer-revoke success sysadmin  device ${deviceId} (operator-pc)`);
    expect(log).toContain(`card-issuer-key refused   device ${deviceId} (operator-pc): revoked`);
    // the PC's new device key is trusted as a new issuer
    const newKey = sm2.generateKeyPairHex();
    expect((await keyCardTrust(newKey)).body.code).toBe(0);
    expect((await rowOf(newKey))!.state).toBe('trusted');
  });

  it('a master-card token holder sees the registry too, as the key-card table', async () => {
    const token = (await swipeMother(server, installed.motherImage)).body.data.token;
    const reply = await call<TrustedIssuerRow[]>(server, 'POST', apiPaths.trustedIssuerList, undefined, { token });
    expect(reply.body.code).toBe(0);
    expect(reply.body.data.map((row) => `${row.deviceId} ${row.state}`)).toContain(`${issuerDeviceId(operatorPc.publicKey)} revoked`);
  });
});

describe.each(databases)('the set-up’s trust by the mother card (%s)', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(kind, { env: { ...gateEnv, ISSUER_TRUST_HOURS: '2' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('while the set-up is unfinished the mother card trusts and renews the issuer that read it, for ISSUER_TRUST_HOURS', async () => {
    const { motherImage } = await initialise(server);
    const token = (await swipeMother(server, motherImage)).body.data.token;
    expect((await fetchKey(server, testIssuer, { token })).body.code).toBe(0);
    server.clock.advance(2 * hour - 1);
    expect((await fetchKey(server, testIssuer)).body.code).toBe(0);
    server.clock.advance(1);
    expect((await fetchKey(server, testIssuer)).body.code).toBe(codes.issuerTrustExpired);
    const again = (await swipeMother(server, motherImage)).body.data.token;
    expect((await fetchKey(server, testIssuer, { token: again })).body.code).toBe(0);
    expect((await fetchKey(server, testIssuer)).body.code).toBe(0);
  });
});
