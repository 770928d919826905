import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sm2 } from 'sm-crypto-v2';
import { sm3Hex } from '@campus/card-crypto';
import { apiPaths, codes, operationLogPermission } from '@campus/contracts';
import type { OperationLogRow } from '@campus/contracts';
import { call, databases, startServer } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';
import { customerPassword, fetchKey, gateEnv, hex, install, keyCardFixedNo, signedChallenge, swipeMother, testIssuer } from '../support/gate-helpers.ts';
import type { Installed, IssuerKeys } from '../support/gate-helpers.ts';

/**
 * docs/cards.md "What each card can do": no single card, nor a copy of its bytes, yields the system key. The attack
 * of issue 25: a copy of the system key card's bytes sent to GetGMSysKeyData with an attacker's own issuer key.
 */
describe.each(databases)('the card trust chain (%s)', (kind) => {
  let server: TestServer;
  let installed: Installed;
  const customerPwd = sm3Hex(customerPassword);

  async function signInAdmin(account: string, password: string, tenantCode: string): Promise<string> {
    const reply = await call<{ loginInfo: { token: string } }>(server, 'POST', apiPaths.webLogin, { user: { account, password: sm3Hex(password), tenantCode } });
    expect(reply.body.code).toBe(0);
    return reply.body.data.loginInfo.token;
  }
  async function logOf(token: string): Promise<OperationLogRow[]> {
    const reply = await call<OperationLogRow[]>(server, 'POST', apiPaths.operationLogSearch, { page: { index: 1, size: 200 } }, { token, language: 'en-US' });
    expect(reply.body.code).toBe(0);
    return reply.body.data;
  }
  const trustEntries = (rows: OperationLogRow[]) => rows.filter((row) => row.action === 'card-reader-trust').map((row) => `${row.result} ${row.detail ?? ''}`);
  const keyCardCall = async (issuer: IssuerKeys, body: Record<string, unknown>) =>
    call<{ sysKeyData: string }>(server, 'POST', apiPaths.getGmSysKeyData, { devicePublicKey: issuer.publicKey, ...(await signedChallenge(server, issuer)), fixedNo: keyCardFixedNo, image: hex(installed.keyCardImage), ...body }, { language: 'en-US' });

  beforeAll(async () => {
    server = await startServer(kind, { env: gateEnv });
    installed = await install(server);
    // a system administrator in the second tenant too: installation-wide entries are for both
    await server.handle.db.updateTable('users').set({ is_system_admin: 1 }).where('account', '=', 'multi').where('tenant_code', '=', '1002').execute();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a copy of the key card’s bytes alone is refused at the first step: no key, no trust', async () => {
    const attacker = sm2.generateKeyPairHex();
    const copied = await keyCardCall(attacker, {});
    expect(copied.status).toBe(400);
    expect(copied.body.code).toBe(codes.badRequest);
    expect(copied.body.msg).toContain('customerPwd');
    // and the attacker's issuer is not trusted afterwards
    expect((await fetchKey(server, attacker)).body.code).toBe(codes.readerNotTrusted);
  });

  it('with a wrong customer password it is refused, counted and logged where every system administrator sees it', async () => {
    const attacker = sm2.generateKeyPairHex();
    const wrong = await keyCardCall(attacker, { customerPwd: sm3Hex('Guess#2026') });
    expect(wrong.body).toMatchObject({ code: codes.customerPasswordWrong, data: { remainingAttempts: 4 } });
    expect((await fetchKey(server, attacker)).body.code).toBe(codes.readerNotTrusted);

    const first = await logOf(await signInAdmin('sysadmin', 'Sysadmin#2026', '1001'));
    const second = await logOf(await signInAdmin('multi', 'Multi#2026', '1002'));
    const expected = `failure system key card ${keyCardFixedNo}: wrong customer password`;
    expect(trustEntries(first)).toContain(expected);
    expect(trustEntries(second)).toContain(expected);
    expect(first.find((row) => row.action === 'card-reader-trust')?.tenantCode).toBe('');
  });

  const operatorPc = sm2.generateKeyPairHex();
  it('the card with the customer password trusts the issuer: the key is sealed to it, and the trust is logged', async () => {
    const trusted = await keyCardCall(operatorPc, { customerPwd });
    expect(trusted.body.code).toBe(0);
    expect(sm2.doDecrypt(trusted.body.data.sysKeyData, operatorPc.privateKey, 1, { output: 'array' })).toHaveLength(24);
    expect((await fetchKey(server, operatorPc)).body.code).toBe(0);
    const log = await logOf(await signInAdmin('multi', 'Multi#2026', '1002'));
    expect(trustEntries(log)).toContain(`success key-card:${keyCardFixedNo}`);
  });

  it('guessing the customer password is limited: the fifth wrong one locks the card out, even for the right password', async () => {
    const attacker = sm2.generateKeyPairHex();
    // the right password above forgot the earlier failure: four more wrong ones leave one try
    for (let i = 0; i < 4; i += 1) expect((await keyCardCall(attacker, { customerPwd: sm3Hex(`Guess#${i}`) })).body.code).toBe(codes.customerPasswordWrong);
    const fifth = await keyCardCall(attacker, { customerPwd: sm3Hex('Guess#5') });
    expect(fifth.body.code).toBe(codes.keyCardTrustLocked);
    expect(fifth.body.msg).toMatch(/^Too many wrong customer passwords: try again after \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    const right = await keyCardCall(attacker, { customerPwd });
    expect(right.body.code).toBe(codes.keyCardTrustLocked);
    expect((await fetchKey(server, attacker)).body.code).toBe(codes.readerNotTrusted);
    const log = await logOf(await signInAdmin('sysadmin', 'Sysadmin#2026', '1001'));
    expect(trustEntries(log)).toContain(`locked system key card ${keyCardFixedNo}`);
    // the lock ends: the card with the customer password works again
    server.clock.advance(61_000);
    expect((await keyCardCall(attacker, { customerPwd })).body.code).toBe(0);
  });

  it('after the set-up a mother-card swipe (or a copy of its bytes) trusts no new card issuer', async () => {
    const copyHolder = sm2.generateKeyPairHex();
    const swipe = await swipeMother(server, installed.motherImage, copyHolder.publicKey);
    expect(swipe.body.code).toBe(0);
    const key = await fetchKey(server, copyHolder, { token: swipe.body.data.token });
    expect(key.body.code).toBe(codes.readerNotTrusted);
    // nor the issuer the token names, although it read the mother card; one trusted before still gets the key
    expect((await fetchKey(server, testIssuer, { token: (await swipeMother(server, installed.motherImage)).body.data.token })).body.code).toBe(codes.readerNotTrusted);
    expect((await fetchKey(server, operatorPc, { token: swipe.body.data.token })).body.code).toBe(0);
  });

  it('system key card actions are logged installation-wide: an administrator of another tenant sees them', async () => {
    const admin1001 = await signInAdmin('sysadmin', 'Sysadmin#2026', '1001');
    const search = await call<{ id: string; fixedNo: string }[]>(server, 'POST', apiPaths.keyCardSearch, { page: { index: 1, size: 15 }, filters: [], orderBys: [] }, { token: admin1001 });
    const card = search.body.data.find((row) => row.fixedNo === keyCardFixedNo)!;
    expect((await call(server, 'POST', apiPaths.keyCardFreeze, { id: card.id }, { token: admin1001 })).body.code).toBe(0);
    expect((await call(server, 'POST', apiPaths.keyCardUnFreeze, { id: card.id }, { token: admin1001 })).body.code).toBe(0);
    const seenFrom1002 = (await logOf(await signInAdmin('multi', 'Multi#2026', '1002'))).filter((row) => row.action === 'card-state').map((row) => `${row.account} ${row.detail ?? ''}`);
    // the test clock stands still: both entries have one time, so their order is not asserted
    expect(seenFrom1002.sort()).toEqual([`sysadmin freeze system key card ${keyCardFixedNo} (tenant 1001)`, `sysadmin unFreeze system key card ${keyCardFixedNo} (tenant 1001)`]);
  });

  it('an operation-log reader who is no system administrator sees only the tenant’s own entries', async () => {
    // staff of 1001 given the operation log's function right (qy 1001030), not a system administrator
    const staff = await server.handle.db.selectFrom('users').select('id').where('account', '=', 'staff').where('tenant_code', '=', '1001').executeTakeFirstOrThrow();
    const qy = await server.handle.db.selectFrom('permission_grants').select('func_ids').where('user_id', '=', staff.id).where('app_code', '=', 'qy').executeTakeFirstOrThrow();
    const withLog = JSON.stringify([...(JSON.parse(qy.func_ids) as string[]), operationLogPermission]);
    await server.handle.db.updateTable('permission_grants').set({ func_ids: withLog }).where('user_id', '=', staff.id).where('app_code', '=', 'qy').execute();
    const rows = await logOf(await signInAdmin('staff', 'Staff#2026', '1001'));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.tenantCode === '1001')).toBe(true);
    expect((await logOf(await signInAdmin('sysadmin', 'Sysadmin#2026', '1001'))).some((row) => row.tenantCode === '')).toBe(true);
  });
});
