import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { sm2 } from 'sm-crypto-v2';
import type { ChangePasswordRequest, PasswordComplexity, UserInfo } from '@campus/contracts';
import { apiPaths, codes } from '@campus/contracts';
import { openDatabase } from '../../src/db/database.ts';
import { PasswordSealService } from '../../src/modules/password-seal/password-seal-service.ts';
import { SealKeyRepository } from '../../src/modules/password-seal/seal-key-repository.ts';
import { createServices } from '../../src/services.ts';
import { attachServer, call, databases, newCaptcha, sha256, signIn, startServer, webLoginBody } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';

/** Seals a password the way the browser does: sm-crypto-v2, cipher mode 1 (C1C3C2), hex. */
function seal(password: string, sealKey: string): string {
  return sm2.doEncrypt(password, sealKey, 1);
}

function changeBody(current: string, next: string, sealKey: string): ChangePasswordRequest {
  return { oprtPwd: sha256(current), oprtNewPwd: sha256(next), sealedNewPwd: seal(next, sealKey) };
}

describe.each(databases)('ChangePassword and the password seal key (%s)', (kind) => {
  let server: TestServer;
  let sealKey: string;
  let userCount = 0;

  beforeAll(async () => {
    server = await startServer(kind);
    const reply = await call<PasswordComplexity>(server, 'GET', apiPaths.passwordComplexity);
    sealKey = reply.body.data.sealKey;
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A fresh account in tenant 1001 (so each test starts with its own failure counter). */
  async function newUser(password = 'Start#2026', extra: { pwdEditReason?: number; pwdLockingTime?: number; isFirstLogin?: boolean } = {}): Promise<string> {
    userCount += 1;
    const account = `pwuser${userCount}`;
    const services = createServices(server.handle, server.config, { now: server.clock.now });
    const id = await services.account.createUser({ tenantCode: '1001', account, name: account, password, ...extra });
    // one sub-system, or the sign-in is refused (noSubsystem)
    await services.menu.grant(id, 'qy', []);
    return account;
  }

  const change = (token: string | undefined, body: unknown, language?: string) =>
    call<null>(server, 'POST', apiPaths.changePassword, body, { token, language });
  const weblogin = (account: string, password: string) => call(server, 'POST', apiPaths.webLogin, webLoginBody(account, password));

  it('GetLoginPassordComplexity gives an uncompressed SM2 public key that stays the same', async () => {
    expect(sealKey).toMatch(/^04[0-9a-f]{128}$/);
    expect(sm2.verifyPublicKey(sealKey)).toBe(true);
    const again = await call<PasswordComplexity>(server, 'GET', apiPaths.passwordComplexity, undefined, { language: 'en-US' });
    expect(again.body.data.sealKey).toBe(sealKey);
    expect(again.body.data.tip).toMatch(/8 to 20/);
    const rows = await server.handle.db.selectFrom('server_keys').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.public_key).toBe(sealKey);
    expect(again.text).not.toContain(rows[0]?.private_key);
    // the stored private key opens what is sealed to the public key (doDecrypt reads the key as hex)
    expect(sm2.doDecrypt(seal('Round#trip1', sealKey), rows[0]?.private_key ?? '', 1)).toBe('Round#trip1');
  });

  it('a second server on the same database answers the same key', async () => {
    const second = await attachServer(server);
    try {
      const reply = await call<PasswordComplexity>(second, 'GET', apiPaths.passwordComplexity);
      expect(reply.body.data.sealKey).toBe(sealKey);
    } finally {
      await second.close();
    }
  });

  it('processes that start together on an installation without a key agree on one pair', async () => {
    const fresh = await startServer(kind); // seeding makes no key: the first use does
    const handles = [openDatabase(fresh.config), openDatabase(fresh.config)];
    try {
      expect(await fresh.handle.db.selectFrom('server_keys').selectAll().execute()).toEqual([]);
      const seals = handles.map((h) => new PasswordSealService({ repo: new SealKeyRepository(h.db), now: Date.now }));
      const keys = await Promise.all(seals.map((s) => s.sealKey()));
      expect(keys[0]).toMatch(/^04[0-9a-f]{128}$/);
      expect(keys[1]).toBe(keys[0]);
      expect(await fresh.handle.db.selectFrom('server_keys').selectAll().execute()).toHaveLength(1);
      // each opens what was sealed to the key the other handed out, and so does the server
      expect(await seals[1]?.open(seal('Shared#key1', keys[0] ?? ''))).toBe('Shared#key1');
      const reply = await call<PasswordComplexity>(fresh, 'GET', apiPaths.passwordComplexity);
      expect(reply.body.data.sealKey).toBe(keys[0]);
    } finally {
      for (const h of handles) await h.close();
      await fresh.close();
    }
  });

  it('success: new hash, every session ended (401 with the old token), old password refused, new one works', async () => {
    const account = await newUser('Start#2026');
    const first = await signIn(server, account, 'Start#2026');
    const other = await signIn(server, account, 'Start#2026');
    const bystander = await signIn(server, 'staff', 'Staff#2026');
    const reply = await change(first, changeBody('Start#2026', 'Changed#2026', sealKey), 'en-US');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ code: 0, msg: 'Success', data: null });

    for (const token of [first, other]) {
      const after = await call(server, 'GET', apiPaths.userDetail, undefined, { token });
      expect(after.status).toBe(401);
      expect(after.body.code).toBe(codes.tokenInvalid);
    }
    expect((await call(server, 'GET', apiPaths.userDetail, undefined, { token: bystander })).status).toBe(200);
    expect((await weblogin(account, 'Start#2026')).body.code).toBe(codes.accountOrPasswordWrong);
    const token = await signIn(server, account, 'Changed#2026');
    const user = await call<UserInfo>(server, 'GET', apiPaths.userDetail, undefined, { token });
    expect(user.body.data).toMatchObject({ oprtPwdEditReason: null, lockingTime: null, isFirstLogin: false });

    const row = await server.handle.db.selectFrom('users').selectAll().where('account', '=', account).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row.digest_mode).toBe('sha256');

    const logs = await server.handle.db.selectFrom('operation_logs').selectAll().where('account', '=', account).where('action', '=', 'change-password').execute();
    expect(logs.map((l) => [l.result, l.detail])).toEqual([['success', 'sessions ended: 2']]);
    const everything = JSON.stringify(await server.handle.db.selectFrom('operation_logs').selectAll().execute());
    for (const secret of ['Changed#2026', sha256('Changed#2026'), 'Start#2026', sha256('Start#2026')]) expect(everything).not.toContain(secret);
  });

  it('the demo account expired reports reason 2 with a past lock date; a change clears both', async () => {
    const token = await signIn(server, 'expired', 'Expired#2026');
    const before = await call<UserInfo>(server, 'GET', apiPaths.userDetail, undefined, { token });
    expect(before.body.data.oprtPwdEditReason).toBe(2);
    expect(before.body.data.lockingTime).toBeTypeOf('number');
    expect(before.body.data.lockingTime ?? Infinity).toBeLessThan(Date.now());
    expect((await change(token, changeBody('Expired#2026', 'Renewed#2026', sealKey))).body.code).toBe(0);
    const fresh = await signIn(server, 'expired', 'Renewed#2026');
    const after = await call<UserInfo>(server, 'GET', apiPaths.userDetail, undefined, { token: fresh });
    expect(after.body.data).toMatchObject({ oprtPwdEditReason: null, lockingTime: null });
  });

  it('a first-login account (reason 0) is cleared too', async () => {
    const account = await newUser('Start#2026', { isFirstLogin: true, pwdEditReason: 0 });
    const token = await signIn(server, account, 'Start#2026');
    expect((await change(token, changeBody('Start#2026', 'Second#2026', sealKey))).body.code).toBe(0);
    const user = await call<UserInfo>(server, 'GET', apiPaths.userDetail, undefined, { token: await signIn(server, account, 'Second#2026') });
    expect(user.body.data).toMatchObject({ isFirstLogin: false, oprtPwdEditReason: null });
  });

  it('a wrong current password is 153, counted like a failed sign-in, and locks the account at the fifth', async () => {
    const account = await newUser('Start#2026');
    const token = await signIn(server, account, 'Start#2026');
    const wrong = () => change(token, changeBody('Wrong#2026', 'Next#20261', sealKey), 'en-US');
    for (let i = 1; i <= 4; i += 1) {
      const reply = await wrong();
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ code: codes.oldPasswordWrong, msg: 'The original password is wrong', data: { remainingAttempts: 5 - i } });
    }
    const locked = await wrong();
    expect(locked.body.code).toBe(codes.accountLocked);
    const lockingTime = (locked.body.data as unknown as { lockingTime: number }).lockingTime;
    expect(lockingTime).toBe(server.clock.now() + 60_000);

    // locked: even the right current password is refused, and nothing changes
    const right = await change(token, changeBody('Start#2026', 'Next#20261', sealKey));
    expect(right.body.code).toBe(codes.accountLocked);
    // the same counter as sign-in: the sign-in form is locked too
    const signInReply = await call(server, 'POST', apiPaths.webLogin, webLoginBody(account, 'Start#2026', '1001', await newCaptcha(server)));
    expect(signInReply.body.code).toBe(codes.accountLocked);

    const logs = await server.handle.db.selectFrom('operation_logs').select(['action', 'result']).where('account', '=', account).where('action', 'in', ['change-password', 'lock']).execute();
    expect(logs.filter((l) => l.action === 'change-password' && l.result === 'failure')).toHaveLength(5);
    expect(logs.filter((l) => l.action === 'lock')).toHaveLength(1);

    server.clock.advance(61_000);
    expect((await change(token, changeBody('Start#2026', 'Next#20261', sealKey))).body.code).toBe(0);
    expect((await weblogin(account, 'Start#2026')).body.code).not.toBe(0);
  });

  it('the right current password forgets earlier failures of the account', async () => {
    const account = await newUser('Start#2026');
    const token = await signIn(server, account, 'Start#2026');
    for (let i = 0; i < 2; i += 1) expect((await change(token, changeBody('Wrong#2026', 'Next#20261', sealKey))).body.code).toBe(codes.oldPasswordWrong);
    expect((await change(token, changeBody('Start#2026', 'short1', sealKey))).body.code).toBe(codes.passwordPolicy);
    const again = await change(token, changeBody('Wrong#2026', 'Next#20261', sealKey));
    expect(again.body.data).toEqual({ remainingAttempts: 4 });
  });

  it('the policy (8–20, a digit, a letter, no space at either end) is checked on the server: 151 with the tip', async () => {
    const account = await newUser('Start#2026');
    const token = await signIn(server, account, 'Start#2026');
    const bad = {
      'too short (7)': 'Abc#123',
      '21 characters': 'Abcdefghij#1234567890',
      'no digit': 'Abcdefgh#',
      'no letter': '12345678#',
      'leading space': ' Abcdef#12',
      'trailing space': 'Abcdef#12 ',
      'only spaces and more': '          ',
    };
    for (const [why, next] of Object.entries(bad)) {
      const reply = await change(token, changeBody('Start#2026', next, sealKey), 'en-US');
      expect([why, reply.status, reply.body.code]).toEqual([why, 200, codes.passwordPolicy]);
      expect(reply.body.msg).toBe(
        'The new password does not meet the password policy: The password must be 8 to 20 characters with at least one digit and one letter; special characters are allowed; no space at the start or the end',
      );
    }
    const zh = await change(token, changeBody('Start#2026', 'short1', sealKey), 'zh-CN');
    expect(zh.body.msg).toBe('新密码不符合密码规则：密码长度为 8 到 20 位，至少包含一个数字和一个字母，可包含特殊字符，首尾不能有空格');
    // nothing was changed or counted as a failure
    expect((await call(server, 'GET', apiPaths.userDetail, undefined, { token })).status).toBe(200);
    const failures = await server.handle.db.selectFrom('login_failures').selectAll().where('key', '=', `1001|${account}`).execute();
    expect(failures).toEqual([]);
    // the limits themselves are allowed: 20 characters, then 8, inner spaces and non-ASCII letters too
    expect((await change(token, changeBody('Start#2026', 'Abcdefghij#123456789', sealKey))).body.code).toBe(0);
    const token2 = await signIn(server, account, 'Abcdefghij#123456789');
    expect((await change(token2, changeBody('Abcdefghij#123456789', 'Ab c 1 ü', sealKey))).body.code).toBe(0);
    await signIn(server, account, 'Ab c 1 ü');
  });

  it('the current password again is 152', async () => {
    const account = await newUser('Start#2026');
    const token = await signIn(server, account, 'Start#2026');
    const reply = await change(token, changeBody('Start#2026', 'Start#2026', sealKey), 'en-US');
    expect(reply.body).toEqual({ code: codes.passwordReused, msg: 'The new password must differ from the current one', data: null });
    expect((await call(server, 'GET', apiPaths.userDetail, undefined, { token })).status).toBe(200);
  });

  it('a seal that does not open, or holds another password than oprtNewPwd names, is HTTP 400', async () => {
    const account = await newUser('Start#2026');
    const token = await signIn(server, account, 'Start#2026');
    const good = changeBody('Start#2026', 'Next#20261', sealKey);
    const flip = (hex: string, at: number) => hex.slice(0, at) + (hex[at] === '0' ? '1' : '0') + hex.slice(at + 1);
    const otherKey = sm2.generateKeyPairHex().publicKey;
    const cases: Record<string, { body: ChangePasswordRequest; field: string }> = {
      'changed ciphertext byte': { body: { ...good, sealedNewPwd: flip(good.sealedNewPwd, good.sealedNewPwd.length - 1) }, field: 'sealedNewPwd' },
      'changed hash (C3) byte': { body: { ...good, sealedNewPwd: flip(good.sealedNewPwd, 130) }, field: 'sealedNewPwd' },
      'C1 not on the curve': { body: { ...good, sealedNewPwd: flip(good.sealedNewPwd, 5) }, field: 'sealedNewPwd' },
      'sealed to another key': { body: { ...good, sealedNewPwd: seal('Next#20261', otherKey) }, field: 'sealedNewPwd' },
      'too short to be a seal': { body: { ...good, sealedNewPwd: 'ab'.repeat(96) }, field: 'sealedNewPwd' },
      'odd number of hex digits': { body: { ...good, sealedNewPwd: `${good.sealedNewPwd}0` }, field: 'sealedNewPwd' },
      'C1C2C3 order': { body: { ...good, sealedNewPwd: sm2.doEncrypt('Next#20261', sealKey, 0) }, field: 'sealedNewPwd' },
      'seal of another password': { body: { ...good, sealedNewPwd: seal('Other#20261', sealKey) }, field: 'oprtNewPwd' },
      'digest of another password': { body: { ...good, oprtNewPwd: sha256('Other#20261') }, field: 'oprtNewPwd' },
    };
    for (const [why, { body, field }] of Object.entries(cases)) {
      const reply = await change(token, body, 'en-US');
      expect([why, reply.status, reply.body.code]).toEqual([why, 400, codes.badRequest]);
      expect([why, reply.body.msg]).toEqual([why, expect.stringMatching(new RegExp(`^The request is not valid: body/${field} `))]);
    }
    // nothing changed, nothing counted
    expect((await change(token, good)).body.code).toBe(0);
  });

  it('missing or malformed fields are HTTP 400 naming the field; no session is 401', async () => {
    const account = await newUser('Start#2026');
    const token = await signIn(server, account, 'Start#2026');
    const good = changeBody('Start#2026', 'Next#20261', sealKey);
    for (const field of ['oprtPwd', 'oprtNewPwd', 'sealedNewPwd'] as const) {
      const { [field]: _dropped, ...rest } = good;
      const reply = await change(token, rest);
      expect(reply.status).toBe(400);
      expect(reply.body.code).toBe(codes.badRequest);
      expect(reply.body.msg).toContain(field);
    }
    const malformed: [string, Partial<ChangePasswordRequest>][] = [
      ['oprtPwd', { oprtPwd: sha256('Start#2026').toUpperCase() }],
      ['oprtNewPwd', { oprtNewPwd: 'Next#20261' }],
      ['sealedNewPwd', { sealedNewPwd: 'not hex at all' }],
      ['sealedNewPwd', { sealedNewPwd: '' }],
      ['sealedNewPwd', { sealedNewPwd: 'a'.repeat(4098) }],
    ];
    for (const [field, patch] of malformed) {
      const reply = await change(token, { ...good, ...patch });
      expect([field, reply.status]).toEqual([field, 400]);
      expect(reply.body.msg).toContain(field);
    }
    expect((await change(token, 'not json')).status).toBe(400);

    const anonymous = await change(undefined, good);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe(codes.tokenInvalid);
    const forged = await change('A'.repeat(43), good);
    expect(forged.status).toBe(401);
    // the GET of the spec is not offered: digests stay out of URLs
    const viaGet = await call(server, 'GET', `${apiPaths.changePassword}?oprtPwd=${good.oprtPwd}&oprtNewPwd=${good.oprtNewPwd}`, undefined, { token });
    expect(viaGet.status).toBe(404);
    // and the password is unchanged
    expect((await change(token, good)).body.code).toBe(0);
  });
});

describe.each(databases)('ChangePassword writes all or nothing (%s)', (kind) => {
  it('when the operation-log write fails, the password, the marks and the sessions stay as they were', async () => {
    const server = await startServer(kind);
    try {
      const key = (await call<PasswordComplexity>(server, 'GET', apiPaths.passwordComplexity)).body.data.sealKey;
      const token = await signIn(server, 'expired', 'Expired#2026');
      const before = await server.handle.db.selectFrom('users').selectAll().where('account', '=', 'expired').executeTakeFirstOrThrow();
      await sql`alter table operation_logs rename to operation_logs_away`.execute(server.handle.db);
      const reply = await call(server, 'POST', apiPaths.changePassword, changeBody('Expired#2026', 'Renewed#2026', key), { token });
      await sql`alter table operation_logs_away rename to operation_logs`.execute(server.handle.db);
      expect(reply.status).toBe(500);
      expect(reply.body.code).toBe(codes.internalError);
      const after = await server.handle.db.selectFrom('users').selectAll().where('account', '=', 'expired').executeTakeFirstOrThrow();
      expect(after).toEqual(before);
      expect((await call(server, 'GET', apiPaths.userDetail, undefined, { token })).status).toBe(200);
      await signIn(server, 'expired', 'Expired#2026');
    } finally {
      await server.close();
    }
  });
});

describe('ChangePassword on a gate deployment (MJ_SYSTEM=21): SM3 digests', () => {
  const sm3 = (text: string) => createHash('sm3').update(text, 'utf8').digest('hex');

  it('takes SM3 digests, refuses SHA-256 ones, and keeps the sm3 mode', async () => {
    const server = await startServer('sqlite', { env: { MJ_SYSTEM: '21' } });
    try {
      const key = (await call<PasswordComplexity>(server, 'GET', apiPaths.passwordComplexity)).body.data.sealKey;
      const login = await call<{ loginInfo: { token: string } }>(server, 'POST', apiPaths.webLogin, { user: { account: 'staff', password: sm3('Staff#2026'), tenantCode: '1001' } });
      const token = login.body.data.loginInfo.token;
      const shaBody = { oprtPwd: sm3('Staff#2026'), oprtNewPwd: sha256('Gate#20261'), sealedNewPwd: seal('Gate#20261', key) };
      expect((await call(server, 'POST', apiPaths.changePassword, shaBody, { token })).status).toBe(400);
      const wrongOld = { oprtPwd: sha256('Staff#2026'), oprtNewPwd: sm3('Gate#20261'), sealedNewPwd: seal('Gate#20261', key) };
      expect((await call(server, 'POST', apiPaths.changePassword, wrongOld, { token })).body.code).toBe(codes.oldPasswordWrong);
      const body = { oprtPwd: sm3('Staff#2026'), oprtNewPwd: sm3('Gate#20261'), sealedNewPwd: seal('Gate#20261', key) };
      expect((await call(server, 'POST', apiPaths.changePassword, body, { token })).body.code).toBe(0);
      const again = await call(server, 'POST', apiPaths.webLogin, { user: { account: 'staff', password: sm3('Gate#20261'), tenantCode: '1001' } });
      expect(again.body.code).toBe(0);
      const row = await server.handle.db.selectFrom('users').select('digest_mode').where('account', '=', 'staff').executeTakeFirstOrThrow();
      expect(row.digest_mode).toBe('sm3');
    } finally {
      await server.close();
    }
  });
});
