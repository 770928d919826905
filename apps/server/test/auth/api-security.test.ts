import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, codes } from '@campus/contracts';
import { call, counts, databases, newCaptcha, sha256, signIn, startServer, webLoginBody } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';

type FailureData = { captchaRequired?: boolean; lockingTime?: number; remainingAttempts?: number };

describe.each(databases)('sign-in failures, captcha and lock-out (%s)', (kind) => {
  let server: TestServer;
  afterEach(async () => {
    await server?.close();
  });

  const login = (account: string, password: string, tenantCode = '1001', verifyModel?: { verifyKey: string; imageVerifyCode: string }, language?: string) =>
    call<FailureData & { loginInfo?: { token: string } }>(server, 'POST', apiPaths.webLogin, webLoginBody(account, password, tenantCode, verifyModel), { language });

  it('a wrong password and an unknown account get the same answer', async () => {
    server = await startServer(kind);
    const wrong = await login('staff', 'Wrong#2026', '1001', undefined, 'en-US');
    const unknown = await login('nobody', 'Wrong#2026', '1001', undefined, 'en-US');
    expect(wrong.status).toBe(200);
    expect(wrong.body.code).toBe(codes.accountOrPasswordWrong);
    expect(wrong.body.msg).toBe('Wrong account or password');
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.body.data).toEqual({ captchaRequired: false, remainingAttempts: 4 });
    expect((await counts(server)).sessions).toBe(0);
  });

  it('messages follow the language header: zh-CN (default), zh-MO, en-US', async () => {
    server = await startServer(kind);
    expect((await login('staff', 'Wrong#2026')).body.msg).toBe('账号或密码错误');
    expect((await login('staff', 'Wrong#2026', '1001', undefined, 'zh-MO')).body.msg).toBe('帳號或密碼錯誤');
    expect((await login('nosub', 'Wrong#2026', '1001', undefined, 'en-US')).body.msg).toBe('Wrong account or password');
    expect((await login('nosub', 'Wrong#2026', '1001', undefined, 'fr-FR')).body.msg).toBe('账号或密码错误');
  });

  it('image code on: missing, wrong, reused and expired codes are refused before the password is checked', async () => {
    server = await startServer(kind, { env: { IMAGE_CODE: 'on' } });
    const before = await counts(server);
    const missing = await login('staff', 'Staff#2026', '1001', undefined, 'en-US');
    expect(missing.body).toEqual({ code: codes.captchaRequired, msg: 'Please enter the verification code', data: { captchaRequired: true } });

    const c1 = await newCaptcha(server);
    const wrong = await login('staff', 'Staff#2026', '1001', { ...c1, imageVerifyCode: 'ZZZZ' });
    expect(wrong.body.code).toBe(codes.captchaWrong);
    // deleted on first use, even a wrong one
    const reused = await login('staff', 'Staff#2026', '1001', c1);
    expect(reused.body.code).toBe(codes.captchaExpired);

    const c2 = await newCaptcha(server);
    server.clock.advance(121_000);
    expect((await login('staff', 'Staff#2026', '1001', c2)).body.code).toBe(codes.captchaExpired);

    const unknownKey = await login('staff', 'Staff#2026', '1001', { verifyKey: 'never-issued-key', imageVerifyCode: 'AB23' });
    expect(unknownKey.body.code).toBe(codes.captchaExpired);
    expect(await counts(server)).toEqual(before);

    const c3 = await newCaptcha(server);
    const right = await login('staff', 'Staff#2026', '1001', { ...c3, imageVerifyCode: 'ab23' }); // case-insensitive
    expect(right.body.code).toBe(0);
    const used = await login('staff', 'Staff#2026', '1001', c3);
    expect(used.body.code).toBe(codes.captchaExpired);
  });

  it('the captcha image is a PNG data URL valid 120 s, and the answer is stored only hashed', async () => {
    server = await startServer(kind);
    server.captcha.text = 'QW7E';
    const reply = await call<{ verifyKey: string; image: string; expiresIn: number }>(server, 'GET', `${apiPaths.captchaImage}?verifyKey=abcdefgh-123`);
    expect(reply.body.data.verifyKey).toBe('abcdefgh-123');
    expect(reply.body.data.expiresIn).toBe(120);
    expect(reply.body.data.image).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    const rows = await server.handle.db.selectFrom('captchas').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toMatch(/QW7E|abcdefgh-123/i);
    for (const bad of ['short', 'has space in it', 'x'.repeat(65), 'semi;colon123']) {
      const r = await call(server, 'GET', `${apiPaths.captchaImage}?verifyKey=${encodeURIComponent(bad)}`);
      expect(r.status).toBe(400);
      expect(r.body.msg).toContain('querystring/verifyKey');
    }
  });

  it('audio=true says the same code aloud, in the language of the request, differently every time; its answer signs in', async () => {
    server = await startServer(kind, { env: { IMAGE_CODE: 'on' } });
    server.captcha.text = 'HW27';
    const spoken = async (verifyKey: string, language: string) => {
      const reply = await call<{ verifyKey: string; image: string; audio?: string }>(server, 'GET', `${apiPaths.captchaImage}?verifyKey=${verifyKey}&audio=true`, undefined, { language });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.data.image).toMatch(/^data:image\/png;base64,/);
      expect(reply.body.data.audio).toMatch(/^data:audio\/wav;base64,/);
      const wav = Buffer.from((reply.body.data.audio ?? '').split(',')[1] ?? '', 'base64');
      // RIFF WAVE, PCM, mono, 8 kHz, 8 bits: what every browser plays
      expect([wav.toString('ascii', 0, 4), wav.toString('ascii', 8, 12)]).toEqual(['RIFF', 'WAVE']);
      expect([wav.readUInt16LE(20), wav.readUInt16LE(22), wav.readUInt32LE(24), wav.readUInt16LE(34)]).toEqual([1, 1, 8000, 8]);
      return wav;
    };
    const english = await spoken('abcdefgh-en1', 'en-US');
    const seconds = (english.length - 44) / 8000;
    // four characters, each about half a second, with a pause of its own before it
    expect(seconds).toBeGreaterThan(3);
    expect(seconds).toBeLessThan(8);
    // no two recordings of a code alike: nothing fixed for a recogniser to match
    const again = await spoken('abcdefgh-en2', 'en-US');
    expect(again.equals(english)).toBe(false);
    const mandarin = await spoken('abcdefgh-zh1', 'zh-CN');
    const cantonese = await spoken('abcdefgh-mo1', 'zh-MO');
    expect(mandarin.length).toBeGreaterThan(44 + 8000 * 2);
    expect(cantonese.length).toBeGreaterThan(44 + 8000 * 2);
    // without audio=true, no audio (the login page asks for it only on "Hear the code")
    const plain = await call<{ audio?: string }>(server, 'GET', `${apiPaths.captchaImage}?verifyKey=abcdefgh-pl1`);
    expect(plain.body.data.audio).toBeUndefined();
    // the spoken code is the code of its key: it signs in once
    expect((await login('staff', 'Staff#2026', '1001', { verifyKey: 'abcdefgh-en2', imageVerifyCode: 'hw27' })).body.code).toBe(0);
    const bad = await call(server, 'GET', `${apiPaths.captchaImage}?verifyKey=abcdefgh-xx1&audio=loud`);
    expect(bad.status).toBe(400);
  });

  it('from 3 failures a captcha is required even with the image code off; a success resets the count', async () => {
    server = await startServer(kind);
    for (let i = 1; i <= 2; i += 1) expect((await login('staff', 'Wrong#2026')).body.data.captchaRequired).toBe(false);
    const third = await login('staff', 'Wrong#2026');
    expect(third.body).toMatchObject({ code: codes.accountOrPasswordWrong, data: { captchaRequired: true, remainingAttempts: 2 } });
    const noCode = await login('staff', 'Staff#2026');
    expect(noCode.body).toMatchObject({ code: codes.captchaRequired, data: { captchaRequired: true } });
    const ok = await login('staff', 'Staff#2026', '1001', await newCaptcha(server));
    expect(ok.body.code).toBe(0);
    expect((await login('staff', 'Staff#2026')).body.code).toBe(0);
    // unknown accounts are counted the same way
    for (let i = 0; i < 3; i += 1) await login('ghost', 'Wrong#2026');
    expect((await login('ghost', 'Wrong#2026')).body.code).toBe(codes.captchaRequired);
  });

  it('locks at 5 failures for 1, then 5, then 15 minutes; the right password is refused while locked', async () => {
    server = await startServer(kind);
    const fail = async () => login('staff', 'Wrong#2026', '1001', await newCaptcha(server), 'en-US');
    for (let i = 0; i < 4; i += 1) expect((await fail()).body.code).toBe(codes.accountOrPasswordWrong);
    const t0 = server.clock.now();
    const fifth = await fail();
    expect(fifth.body.code).toBe(codes.accountLocked);
    expect(fifth.body.data.lockingTime).toBe(t0 + 60_000);
    expect(fifth.body.msg).toMatch(/^Too many failed sign-ins: the account is locked until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    const { lockingTime } = fifth.body.data as { lockingTime: number };
    expect(fifth.body.msg).toContain(new Date(lockingTime).toISOString().slice(0, 19).replace('T', ' '));

    const right = await login('staff', 'Staff#2026', '1001', await newCaptcha(server));
    expect(right.body.code).toBe(codes.accountLocked);
    expect(right.body.data.lockingTime).toBe(t0 + 60_000);

    server.clock.advance(61_000);
    for (let i = 0; i < 4; i += 1) expect((await fail()).body.code).toBe(codes.accountOrPasswordWrong);
    const t1 = server.clock.now();
    expect((await fail()).body.data.lockingTime).toBe(t1 + 5 * 60_000);

    server.clock.advance(5 * 60_000 + 1000);
    for (let i = 0; i < 4; i += 1) await fail();
    const t2 = server.clock.now();
    expect((await fail()).body.data.lockingTime).toBe(t2 + 15 * 60_000);

    server.clock.advance(15 * 60_000 + 1000);
    const after = await login('staff', 'Staff#2026', '1001', await newCaptcha(server));
    expect(after.body.code).toBe(0);

    const logs = await server.handle.db.selectFrom('operation_logs').selectAll().where('account', '=', 'staff').execute();
    expect(logs.filter((l) => l.action === 'lock')).toHaveLength(3);
    expect(logs.filter((l) => l.action === 'login' && l.result === 'locked')).toHaveLength(1);
    expect(logs.filter((l) => l.action === 'login' && l.result === 'success')).toHaveLength(1);
    expect(logs.every((l) => l.client_ip === '127.0.0.1')).toBe(true);
    expect(JSON.stringify(logs)).not.toContain(sha256('Wrong#2026'));
  });

  it('a disabled account answers 246 after a right password', async () => {
    server = await startServer(kind);
    await server.handle.db.updateTable('users').set({ is_disabled: 1 }).where('account', '=', 'nosub').execute();
    const reply = await login('nosub', 'Nosub#2026', '1001', undefined, 'en-US');
    expect(reply.body.code).toBe(codes.accountDisabled);
    expect(reply.body.msg).toBe('This account is disabled, please contact the administrator');
    expect((await counts(server)).sessions).toBe(0);
    expect((await login('nosub', 'Wrong#2026')).body.code).toBe(codes.accountOrPasswordWrong);
  });

  it('an unknown tenant is refused', async () => {
    server = await startServer(kind);
    expect((await login('staff', 'Staff#2026', '9999')).body.code).toBe(codes.tenantUnknown);
  });
});

describe.each(databases)('sessions and tokens (%s)', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(kind, { env: { SESSION_IDLE_MINUTES: '120', SESSION_MAX_HOURS: '12' } });
  });
  afterAll(async () => {
    await server?.close();
  });
  const detail = (token?: string, language?: string) => call(server, 'GET', apiPaths.userDetail, undefined, { token, language });

  it('a missing or forged token answers HTTP 401 with code 31', async () => {
    const missing = await detail(undefined, 'en-US');
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ code: 31, msg: 'Your sign-in is not valid, please sign in again', data: null });
    for (const forged of ['abc', 'x'.repeat(43), 'A'.repeat(43), '../../etc/passwd']) {
      const r = await detail(forged);
      expect(r.status).toBe(401);
      expect(r.body.code).toBe(31);
    }
    for (const p of [apiPaths.menus, apiPaths.permissions, apiPaths.userSettings, apiPaths.licencePermission, apiPaths.sysKeyParam, apiPaths.accountTenants]) {
      const r = await call(server, 'GET', p);
      expect([p, r.status, r.body.code]).toEqual([p, 401, 31]);
    }
  });

  it('tokens are stored only as their SHA-256', async () => {
    const token = await signIn(server, 'staff', 'Staff#2026');
    const rows = await server.handle.db.selectFrom('sessions').select('token_hash').execute();
    expect(rows.map((r) => r.token_hash)).toContain(sha256(token));
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('logout revokes the session: the token then answers 401 / 31', async () => {
    const token = await signIn(server, 'staff', 'Staff#2026');
    expect((await detail(token)).status).toBe(200);
    const out = await call(server, 'POST', apiPaths.logout, undefined, { token });
    expect(out.body.code).toBe(0);
    const after = await detail(token);
    expect(after.status).toBe(401);
    expect(after.body.code).toBe(31);
    expect((await call(server, 'POST', apiPaths.logout, undefined, { token })).status).toBe(401);
    const logs = await server.handle.db.selectFrom('operation_logs').selectAll().where('action', '=', 'logout').execute();
    expect(logs.length).toBeGreaterThanOrEqual(1);
  });

  it('an idle session expires: 401 / 32', async () => {
    const token = await signIn(server, 'staff', 'Staff#2026');
    server.clock.advance(119 * 60_000);
    expect((await detail(token)).status).toBe(200); // use refreshes the idle expiry
    server.clock.advance(119 * 60_000);
    expect((await detail(token)).status).toBe(200);
    server.clock.advance(121 * 60_000);
    const expired = await detail(token, 'en-US');
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ code: 32, msg: 'Your sign-in has expired, please sign in again', data: null });
  });

  it('a session in use still ends at the absolute limit: 401 / 32', async () => {
    const token = await signIn(server, 'staff', 'Staff#2026');
    for (let h = 0; h < 11; h += 1) {
      server.clock.advance(60 * 60_000);
      expect((await detail(token)).status).toBe(200);
    }
    server.clock.advance(61 * 60_000);
    const r = await detail(token);
    expect(r.status).toBe(401);
    expect(r.body.code).toBe(32);
  });
});

describe.each(databases)('malformed requests are refused with 400 naming the field, and change nothing (%s)', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(kind);
    // some state to compare against
    await call(server, 'POST', apiPaths.webLogin, webLoginBody('staff', 'Wrong#2026'));
    await signIn(server, 'staff', 'Staff#2026');
  });
  afterAll(async () => {
    await server?.close();
  });

  const digest = sha256('Staff#2026');
  const cases: [string, string, unknown, string][] = [
    ['no body', apiPaths.webLogin, {}, "body must have required property 'user'"],
    ['missing account', apiPaths.webLogin, { user: { password: digest, tenantCode: '1001' } }, "body/user must have required property 'account'"],
    ['empty account', apiPaths.webLogin, { user: { account: '', password: digest, tenantCode: '1001' } }, 'body/user/account must NOT have fewer than 1 characters'],
    ['account of wrong type', apiPaths.webLogin, { user: { account: 12345, password: digest, tenantCode: '1001' } }, 'body/user/account must be string'],
    ['extra-long account', apiPaths.webLogin, { user: { account: 'a'.repeat(65), password: digest, tenantCode: '1001' } }, 'body/user/account must NOT have more than 64 characters'],
    ['control character in account', apiPaths.webLogin, { user: { account: 'staff\u0000', password: digest, tenantCode: '1001' } }, 'body/user/account must match pattern'],
    ['plain password', apiPaths.webLogin, { user: { account: 'staff', password: 'Staff#2026', tenantCode: '1001' } }, 'body/user/password must match pattern'],
    ['upper-case digest', apiPaths.webLogin, { user: { account: 'staff', password: digest.toUpperCase(), tenantCode: '1001' } }, 'body/user/password must match pattern'],
    ['short digest', apiPaths.webLogin, { user: { account: 'staff', password: digest.slice(1), tenantCode: '1001' } }, 'body/user/password must match pattern'],
    ['missing tenant', apiPaths.webLogin, { user: { account: 'staff', password: digest } }, "body/user must have required property 'tenantCode'"],
    ['empty tenant', apiPaths.webLogin, { user: { account: 'staff', password: digest, tenantCode: '' } }, 'body/user/tenantCode must NOT have fewer than 1 characters'],
    ['verify model of wrong type', apiPaths.webLogin, { user: { account: 'staff', password: digest, tenantCode: '1001' }, verifyModel: 'AB23' }, 'body/verifyModel must be object'],
    ['long image code', apiPaths.webLogin, { user: { account: 'staff', password: digest, tenantCode: '1001' }, verifyModel: { verifyKey: 'abcdefgh', imageVerifyCode: 'x'.repeat(17) } }, 'body/verifyModel/imageVerifyCode must NOT have more than 16 characters'],
    ['accountLogin without password', apiPaths.accountLogin, { account: 'staff' }, "body must have required property 'password'"],
    ['ldapLogin with a non-base64 password', apiPaths.ldapLogin, { account: 'staff', password: 'not base64!', tenantCode: '1001' }, 'body/password must match pattern'],
  ];

  it.each(cases)('%s', async (_name, urlPath, body, message) => {
    const before = await counts(server);
    const reply = await call(server, 'POST', urlPath, body, { language: 'en-US' });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe(codes.badRequest);
    expect(reply.body.msg).toContain(message);
    expect(reply.text).not.toMatch(/at .*\.ts:\d+/);
    expect(await counts(server)).toEqual(before);
  });

  it('invalid JSON and a query without its field are 400 too', async () => {
    const before = await counts(server);
    const bad = await call(server, 'POST', apiPaths.webLogin, '{"user":', { language: 'en-US' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(codes.badRequest);
    const noAccount = await call(server, 'GET', apiPaths.tenantSearch);
    expect(noAccount.status).toBe(400);
    expect(noAccount.body.msg).toContain("querystring must have required property 'account'");
    const longGuid = await call(server, 'GET', `${apiPaths.tenantSettings}?guid=${'g'.repeat(65)}`);
    expect(longGuid.status).toBe(400);
    expect(await counts(server)).toEqual(before);
  });
});
