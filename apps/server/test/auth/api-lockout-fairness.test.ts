import { afterEach, describe, expect, it } from 'vitest';
import { apiPaths, codes, lockout } from '@campus/contracts';
import { call, databases, newCaptcha, startServer, webLoginBody } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';

type FailureData = { captchaRequired?: boolean; lockingTime?: number; remainingAttempts?: number; retryAfter?: number };

/**
 * Lock-out that is fair to people behind one address (a campus NAT) and to accounts others know the name
 * of (docs/sign-in.md "Failed sign-ins and lock-outs"). Client addresses are given by X-Forwarded-For behind one trusted proxy hop.
 */
describe.each(databases)('fair lock-out (%s)', (kind) => {
  let server: TestServer;
  afterEach(async () => {
    await server?.close();
  });

  const start = async (env: Record<string, string> = {}) => {
    server = await startServer(kind, { env: { TRUST_PROXY: '1', ...env } });
  };
  const login = async (account: string, password: string, from: string, withCode = true) =>
    call<FailureData>(server, 'POST', apiPaths.webLogin, webLoginBody(account, password, '1001', withCode ? await newCaptcha(server) : undefined), {
      language: 'en-US',
      headers: { 'x-forwarded-for': from },
    });

  it('failures on other accounts from one address never lock an account there: the address is throttled with 429', async () => {
    await start({ LOGIN_ADDRESS_FAILURE_LIMIT: '20' });
    const nat = '10.1.0.1';
    for (let i = 0; i < 20; i += 1) {
      const reply = await login(`ghost${i}`, 'Wrong#2026', nat);
      expect(reply.body.code, `failure ${i + 1}`).toBe(codes.accountOrPasswordWrong);
    }
    // the 20th failure started the wait: 1 s, answered with 429 and Retry-After, for every account there
    const waiting = await login('staff', 'Staff#2026', nat);
    expect(waiting.status).toBe(429);
    expect(waiting.headers.get('retry-after')).toBe('1');
    expect(waiting.body).toMatchObject({ code: codes.signInThrottled, data: { retryAfter: 1, captchaRequired: true } });
    expect(waiting.body.msg).toBe('Too many failed sign-ins from this address: please wait 1 s and enter the verification code');
    server.clock.advance(1_000);
    // now an image code is required from that address, and with it the right password works: no "locked"
    expect((await login('staff', 'Staff#2026', nat, false)).body.code).toBe(codes.captchaRequired);
    expect((await login('staff', 'Staff#2026', nat)).body.code).toBe(0);
    // a success does not clear the address: the next failure waits twice as long
    expect((await login('ghost-next', 'Wrong#2026', nat)).body.code).toBe(codes.accountOrPasswordWrong);
    const longer = await login('sysadmin', 'Sysadmin#2026', nat);
    expect(longer.status).toBe(429);
    expect(longer.headers.get('retry-after')).toBe('2');
    // the wait grows to at most a minute, and nobody behind the address is ever told "account locked"
    for (let i = 0; i < 10; i += 1) {
      server.clock.advance(lockout.addressMaxWaitSeconds * 1000);
      expect((await login(`other${i}`, 'Wrong#2026', nat)).body.code).not.toBe(codes.accountLocked);
    }
    const capped = await login('sysadmin', 'Sysadmin#2026', nat);
    expect(capped.headers.get('retry-after')).toBe(String(lockout.addressMaxWaitSeconds));
    server.clock.advance(lockout.addressMaxWaitSeconds * 1000);
    expect((await login('sysadmin', 'Sysadmin#2026', nat)).body.code).toBe(0);
    // another address is not affected at all
    expect((await login('staff', 'Staff#2026', '10.2.0.1', false)).body.code).toBe(0);
  });

  it('five failures lock the account for that address only; from another address the right password works', async () => {
    await start();
    const attacker = '10.3.0.1';
    for (let i = 0; i < 4; i += 1) expect((await login('sysadmin', 'Wrong#2026', attacker)).body.code).toBe(codes.accountOrPasswordWrong);
    const fifth = await login('sysadmin', 'Wrong#2026', attacker);
    expect(fifth.body.code).toBe(codes.accountLocked);
    expect((await login('sysadmin', 'Sysadmin#2026', attacker)).body.code).toBe(codes.accountLocked);
    // the owner elsewhere: an image code is asked (the account has failures), then it works
    const owner = '10.4.0.1';
    expect((await login('sysadmin', 'Sysadmin#2026', owner, false)).body.code).toBe(codes.captchaRequired);
    expect((await login('sysadmin', 'Sysadmin#2026', owner)).body.code).toBe(0);
  });

  it('the account is locked for every address only at 20 failures from at least 3 addresses, for 15 minutes', async () => {
    await start();
    const owner = '10.6.0.1';
    // 15 failures from 5 addresses (3 each), then the owner signs in: that forgets the account's count
    for (let i = 0; i < 15; i += 1) expect((await login('staff', 'Wrong#2026', `10.5.0.${i % 5}`)).body.code).toBe(codes.accountOrPasswordWrong);
    expect((await login('staff', 'Staff#2026', owner)).body.code).toBe(0);
    // 20 more from 5 other addresses, 4 each (no address reaches its own lock): the 20th locks the account
    for (let i = 0; i < 19; i += 1) expect((await login('staff', 'Wrong#2026', `10.9.0.${i % 5}`)).body.code, `failure ${i + 1}`).toBe(codes.accountOrPasswordWrong);
    const t = server.clock.now();
    const twentieth = await login('staff', 'Wrong#2026', '10.9.0.4');
    expect(twentieth.body.code).toBe(codes.accountLocked);
    expect(twentieth.body.data.lockingTime).toBe(t + lockout.accountLockMinutes * 60_000);
    // now also for the owner, who did nothing wrong, until the 15 minutes are over
    expect((await login('staff', 'Staff#2026', owner)).body.code).toBe(codes.accountLocked);
    server.clock.advance(lockout.accountLockMinutes * 60_000 + 1000);
    expect((await login('staff', 'Staff#2026', owner)).body.code).toBe(0);
    const locks = await server.handle.db.selectFrom('operation_logs').selectAll().where('account', '=', 'staff').where('action', '=', 'lock').execute();
    expect(locks).toHaveLength(1);
  });

  it('30 failures from one address alone never lock the account elsewhere, even while that address is locked out', async () => {
    await start({ LOGIN_ADDRESS_FAILURE_LIMIT: '1000' });
    const attacker = '10.7.0.1';
    for (let round = 0; round < 6; round += 1) {
      if (round > 0) server.clock.advance(16 * 60_000);
      for (let i = 0; i < 5; i += 1) await login('sysadmin', 'Wrong#2026', attacker);
    }
    expect((await login('sysadmin', 'Sysadmin#2026', attacker)).body.code).toBe(codes.accountLocked);
    expect((await login('sysadmin', 'Sysadmin#2026', '10.8.0.1')).body.code).toBe(0);
  });
});

describe.each(databases)('TRUST_PROXY and the client address (%s)', (kind) => {
  let server: TestServer;
  afterEach(async () => {
    await server?.close();
  });

  /** Fails a sign-in with a forged X-Forwarded-For and answers the address the operation log recorded. */
  async function loggedAddress(forwarded: string): Promise<string> {
    await call(server, 'POST', apiPaths.webLogin, webLoginBody('staff', 'Wrong#2026'), { headers: { 'x-forwarded-for': forwarded } });
    const row = await server.handle.db.selectFrom('operation_logs').select('client_ip').orderBy('created_at', 'desc').orderBy('id', 'desc').executeTakeFirstOrThrow();
    await server.handle.db.deleteFrom('operation_logs').execute();
    return row.client_ip;
  }

  it('off (the default): a forged header is ignored', async () => {
    server = await startServer(kind);
    expect(await loggedAddress('203.0.113.9')).toBe('127.0.0.1');
  });

  it('one hop (TRUST_PROXY=1, or on): the entry the proxy added, never the client\'s own first entry', async () => {
    for (const value of ['1', 'on']) {
      server = await startServer(kind, { env: { TRUST_PROXY: value } });
      expect(await loggedAddress('203.0.113.9, 198.51.100.7')).toBe('198.51.100.7');
      await server.close();
    }
    server = await startServer(kind, { env: { TRUST_PROXY: '2' } });
    expect(await loggedAddress('203.0.113.9, 198.51.100.7, 192.0.2.1')).toBe('198.51.100.7');
  });

  it('a proxy list: the header counts only on a connection from a listed proxy', async () => {
    server = await startServer(kind, { env: { TRUST_PROXY: '10.0.0.5, 10.0.0.6' } });
    expect(await loggedAddress('203.0.113.9')).toBe('127.0.0.1');
    await server.close();
    server = await startServer(kind, { env: { TRUST_PROXY: '10.0.0.5,127.0.0.0/8' } });
    expect(await loggedAddress('203.0.113.9, 198.51.100.7')).toBe('198.51.100.7');
  });

  it('the rate limit counts the same address as the log: a forged first entry does not escape it', async () => {
    server = await startServer(kind, { env: { TRUST_PROXY: '1', RATE_LIMIT_PER_MINUTE: '2' } });
    const tenants = (forwarded: string) => call(server, 'GET', `${apiPaths.tenantSearch}?account=staff`, undefined, { headers: { 'x-forwarded-for': forwarded } });
    expect((await tenants('203.0.113.1, 198.51.100.1')).status).toBe(200);
    expect((await tenants('203.0.113.2, 198.51.100.1')).status).toBe(200);
    expect((await tenants('203.0.113.3, 198.51.100.1')).status).toBe(429);
    expect((await tenants('203.0.113.3, 198.51.100.2')).status).toBe(200);
  });

  it('the lock-out counts the same address as the log: a forged first entry does not escape it', async () => {
    server = await startServer(kind, { env: { TRUST_PROXY: '1' } });
    const login = async (password: string, forwarded: string) =>
      call(server, 'POST', apiPaths.webLogin, webLoginBody('staff', password, '1001', await newCaptcha(server)), { headers: { 'x-forwarded-for': forwarded } });
    for (let i = 0; i < lockout.lockAfterFailures; i += 1) await login('Wrong#2026', `203.0.113.${i}, 198.51.100.9`);
    expect((await login('Staff#2026', '203.0.113.99, 198.51.100.9')).body.code).toBe(codes.accountLocked);
    expect((await login('Staff#2026', '203.0.113.99, 198.51.100.10')).body.code).toBe(0);
  });
});
