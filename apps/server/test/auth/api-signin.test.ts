import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LicencePermission, MenuData, PermissionEntry, TenantEntry, UserInfo, UserSettings } from '@campus/contracts';
import { apiPaths, codes, shellVersion } from '@campus/contracts';
import { call, databases, sha256, signIn, startServer, webLoginBody } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';

const allSystems = ['qy', 'xt', 'mj', 'tk', 'mk', 'fk', 'kq', 'xf', 'lk', 'hy', 'fb', 'ss', 'xg', 'tc'];

describe.each(databases)('sign-in and what each demo account gets (%s)', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(kind);
  });
  afterAll(async () => {
    await server?.close();
  });

  const menus = (token: string, language?: string) => call<MenuData>(server, 'GET', apiPaths.menus, undefined, { token, language });
  const permissions = (token: string) => call<PermissionEntry[]>(server, 'GET', apiPaths.permissions, undefined, { token });

  it('sysadmin signs in and sees every system with its pages, sorted by sortNum', async () => {
    const login = await call<{ loginInfo: { token: string; tenantCode: string } }>(server, 'POST', apiPaths.webLogin, {
      user: { account: 'sysadmin', password: sha256('Sysadmin#2026'), tenantCode: '1001' },
    });
    expect(login.status).toBe(200);
    expect(login.body.code).toBe(0);
    expect(login.body.data.loginInfo.tenantCode).toBe('1001');
    const token = login.body.data.loginInfo.token;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const m = await menus(token, 'en-US');
    expect(m.body.code).toBe(0);
    expect(m.body.data.menuBaseList.map((s) => s.appNo)).toEqual(allSystems);
    const sorts = m.body.data.menuBaseList.map((s) => s.sortNum);
    expect([...sorts].sort((a, b) => a - b)).toEqual(sorts);
    const pageSorts = m.body.data.menuList.map((p) => p.sortNum);
    expect([...pageSorts].sort((a, b) => a - b)).toEqual(pageSorts);
    const pathsSeen = m.body.data.menuList.map((p) => p.path);
    expect(pathsSeen).toEqual(expect.arrayContaining(['/qy/homePage', '/qy/operate-log', '/mj/mj-action-event', '/qy/department', '/kq/monthly-report']));
    const tc = m.body.data.menuBaseList.find((s) => s.appNo === 'tc');
    expect(tc?.frontRoutingAddr).toBe('');
    expect(m.body.data.menuBaseList.find((s) => s.appNo === 'mk')?.frontRoutingAddr).toBe('monitor/mj');
    expect(m.body.data.menuBaseList.find((s) => s.appNo === 'xt')?.frontRoutingAddr).toBe('qy');
    // three levels: group → sub-group → page
    const page = m.body.data.menuList.find((p) => p.path === '/qy/employee');
    const sub = m.body.data.menuList.find((p) => p.id === page?.meta.parentId);
    const top = m.body.data.menuList.find((p) => p.id === sub?.meta.parentId);
    expect(sub?.title).toBe('Employees');
    expect(top?.meta.parentId).toBeNull();

    const p = await permissions(token);
    expect(p.body.data.map((e) => e.appCode)).toEqual(allSystems);
    expect(p.body.data.find((e) => e.appCode === 'xt')?.ids).toEqual(expect.arrayContaining(['1002000', '1002003']));
    expect(p.body.data.find((e) => e.appCode === 'qy')?.ids).toContain('1003163');

    const user = await call<UserInfo>(server, 'GET', apiPaths.userDetail, undefined, { token });
    // not a gate deployment: no card tables (issue 25, item 17)
    expect(user.body.data).toMatchObject({ code: 'sysadmin', isSystemAdmin: true, loginType: 1, tenantCode: '1001', oprtPwdEditReason: null, mayManageCards: false });

    const licence = await call<LicencePermission>(server, 'GET', apiPaths.licencePermission, undefined, { token });
    expect(licence.body.data).toMatchObject({ isNormal: true, isSystemAdmin: true, licenseState: 5 });
  });

  it('titles and labels follow the language header', async () => {
    const token = await signIn(server, 'sysadmin', 'Sysadmin#2026');
    const zh = await menus(token, 'zh-CN');
    const mo = await menus(token, 'zh-MO');
    const en = await menus(token);
    expect(zh.body.data.menuBaseList[0]?.label).toBe('企业数据');
    expect(mo.body.data.menuBaseList[0]?.label).toBe('企業數據');
    expect(en.body.data.menuBaseList[0]?.label).toBe('企业数据'); // no header: zh-CN
    expect(mo.body.data.menuList.find((p) => p.path === '/qy/homePage')?.title).toBe('首頁');
  });

  it('staff gets qy and kq only, without the pages of the function rights it lacks', async () => {
    const token = await signIn(server, 'staff', 'Staff#2026');
    const m = await menus(token, 'en-US');
    expect(m.body.data.menuBaseList.map((s) => s.appNo)).toEqual(['qy', 'kq']);
    const pathsSeen = m.body.data.menuList.map((p) => p.path);
    expect(pathsSeen).toContain('/qy/homePage');
    expect(pathsSeen).toContain('/kq/daily-report');
    expect(pathsSeen).not.toContain('/qy/operate-log');
    expect(pathsSeen).not.toContain('/kq/monthly-report');
    expect(m.body.data.menuList.some((p) => p.meta.appNo === 'mj')).toBe(false);
    // the Logs group held only the operation log: it is gone too
    expect(m.body.data.menuList.some((p) => p.id === 'qy-logs')).toBe(false);
    const p = await permissions(token);
    expect(p.body.data).toEqual([
      { appCode: 'qy', ids: ['1001000', '1001010', '1001020'] },
      { appCode: 'kq', ids: ['1005000', '1005001'] },
    ]);
    const settings = await call<UserSettings>(server, 'GET', apiPaths.userSettings, undefined, { token });
    expect(settings.body.data).toEqual({ language: 'en-US', timeZone: { utcDiff: 480 } });
    const licence = await call<LicencePermission>(server, 'GET', apiPaths.licencePermission, undefined, { token });
    expect(licence.body.data).toMatchObject({ isNormal: true, isSystemAdmin: false, isViewPermission: false });
  });

  it("the language chosen in the shell is kept as the user's setting, for the next sign-in too", async () => {
    const token = await signIn(server, 'multi', 'Multi#2026', '1001');
    const settings = (session: string) => call<UserSettings>(server, 'GET', apiPaths.userSettings, undefined, { token: session });
    const before = (await settings(token)).body.data;
    const save = (body: unknown, session: string | null = token) => call<null>(server, 'POST', apiPaths.saveUserSettings, body, session === null ? {} : { token: session });

    const saved = await save({ language: 'zh-MO' });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ code: 0, data: null });
    expect((await settings(token)).body.data).toEqual({ ...before, language: 'zh-MO' });
    // a later sign-in (another browser) reads it
    const next = await signIn(server, 'multi', 'Multi#2026', '1001');
    expect((await settings(next)).body.data.language).toBe('zh-MO');

    // only the three interface languages, and only for a session
    expect((await save({ language: 'fr-FR' })).status).toBe(400);
    expect((await save({})).status).toBe(400);
    expect((await save({ language: 'en-US' }, null)).status).toBe(401);
    expect((await settings(token)).body.data.language).toBe('zh-MO');

    await save({ language: before.language });
    expect((await settings(next)).body.data).toEqual(before);
  });

  it('multi is in two tenants and gets different systems in each', async () => {
    const search = await call<TenantEntry[]>(server, 'GET', `${apiPaths.tenantSearch}?account=multi`, undefined, { language: 'en-US' });
    expect(search.body.data).toEqual([
      { code: '1001', name: 'Demo Campus' },
      { code: '1002', name: 'Branch Campus' },
    ]);
    const a = await signIn(server, 'multi', 'Multi#2026', '1001');
    const b = await signIn(server, 'multi', 'Multi#2026', '1002');
    expect((await menus(a)).body.data.menuBaseList.map((s) => s.appNo)).toEqual(['qy', 'mj']);
    expect((await menus(b)).body.data.menuBaseList.map((s) => s.appNo)).toEqual(['kq', 'xf']);
    const tenants = await call<TenantEntry[]>(server, 'GET', apiPaths.accountTenants, undefined, { token: b });
    expect(tenants.body.data.map((t) => t.code)).toEqual(['1001', '1002']);
    // accountLogin without a tenant: must choose
    const noTenant = await call(server, 'POST', apiPaths.accountLogin, { account: 'multi', password: sha256('Multi#2026') });
    expect(noTenant.body.code).toBe(codes.tenantRequired);
  });

  it('accountLogin works without tenantCode for an account in one tenant', async () => {
    const reply = await call<{ token: string; tenantCode: string }>(server, 'POST', apiPaths.accountLogin, { account: 'staff', password: sha256('Staff#2026') });
    expect(reply.body.code).toBe(0);
    expect(reply.body.data.tenantCode).toBe('1001');
    const user = await call<UserInfo>(server, 'GET', apiPaths.userDetail, undefined, { token: reply.body.data.token });
    expect(user.body.data.code).toBe('staff');
  });

  it('nosub has no sub-system, so the right password gets no session but code 193', async () => {
    const reply = await call(server, 'POST', apiPaths.webLogin, webLoginBody('nosub', 'Nosub#2026'));
    expect(reply.body.code).toBe(codes.noSubsystem);
    expect(reply.body.data).toBeNull();
  });

  it('expired signs in with reason 2 and the expiry date as lockingTime', async () => {
    const token = await signIn(server, 'expired', 'Expired#2026');
    const user = await call<UserInfo>(server, 'GET', apiPaths.userDetail, undefined, { token });
    expect(user.body.data.oprtPwdEditReason).toBe(2);
    expect(user.body.data.lockingTime).toBe(Date.parse('2026-01-01T00:00:00+08:00'));
  });

  it('tenantSearch: staff has one tenant, an unknown account gets the default tenant', async () => {
    const staff = await call<TenantEntry[]>(server, 'GET', `${apiPaths.tenantSearch}?account=staff`);
    expect(staff.body.data).toEqual([{ code: '1001', name: '演示园区' }]);
    const unknown = await call<TenantEntry[]>(server, 'GET', `${apiPaths.tenantSearch}?account=nobody-here`);
    expect(unknown.body).toEqual(staff.body);
  });

  it('public settings come from the configuration and the default tenant', async () => {
    const settings = await call<Record<string, unknown>>(server, 'GET', `${apiPaths.tenantSettings}?guid=0f8fad5b-d9cb-469f-a165-70867728950e`, undefined, { language: 'en-US' });
    expect(settings.body.data).toMatchObject({ imgVerifyCode: false, openLdap: false, mjSystem: 1, cardLogin: false, code: '1001', systemName: 'Campus Management Platform', isPrivateDeployment: false });
    expect(String(settings.body.data.loginBg)).toMatch(/^\/oss\/file\/getObject\/[\w-]+$/);
    const runtime = await call(server, 'GET', apiPaths.runtimeLoginSettings);
    expect(runtime.body.data).toEqual({ IsPrivateDeployment: false, OpenImageVerifyCode: false, CardLogin: false, MJSystem: 1, OpenLdap: false, IsOEM: false });
    const version = await call(server, 'GET', `${apiPaths.versionCheck}?guid=abc`);
    expect(version.body.data).toEqual({ mjSystem: 1, version: shellVersion });
    const logo = await call<{ url: string }>(server, 'GET', apiPaths.loginLogo);
    const image = await fetch(`${server.url}${logo.body.data.url}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/svg+xml');
    const langs = await call(server, 'GET', apiPaths.languages);
    expect(langs.body.data).toEqual([
      { code: 'zh-CN', text: '简体中文' },
      { code: 'zh-MO', text: '繁體中文' },
      { code: 'en-US', text: 'English' },
    ]);
    const logos = await call(server, 'GET', apiPaths.systemLogos, undefined, { language: 'zh-MO' });
    expect(logos.body.data).toEqual([{ code: '1001', systemLogo: expect.stringMatching(/^\/oss\/file\/getObject\//), systemName: '智慧園區管理平台' }]);
  });

  it('password complexity: base64 regex for 8–20 characters with a digit and a letter, localised tip', async () => {
    const reply = await call<{ regex: string; tip: string }>(server, 'GET', apiPaths.passwordComplexity, undefined, { language: 'en-US' });
    const re = new RegExp(Buffer.from(reply.body.data.regex, 'base64').toString('utf8'));
    for (const good of ['Sysadmin#2026', 'abcdefg1', 'a1234567890123456789'.slice(0, 20)]) expect(re.test(good)).toBe(true);
    for (const bad of ['short1a', 'abcdefgh', '12345678', ' abcdefg1', 'abcdefg1 ', 'a1234567890123456789x']) expect(re.test(bad)).toBe(false);
    expect(reply.body.data.tip).toMatch(/8 to 20/);
  });

  it('sysKeyParam and the operation log (administrators only) answer for a session', async () => {
    const admin = await signIn(server, 'sysadmin', 'Sysadmin#2026');
    const key = await call(server, 'GET', apiPaths.sysKeyParam, undefined, { token: admin });
    expect(key.body.data).toEqual({ mjSystem: 1, isNationalCrypto: false, sysKeyData: null, keyId: '', cardKind: 11 });
    const logs = await call<{ action: string; result: string; account: string }[]>(server, 'POST', '/qy/api/OperateLog/Search', { page: { index: 1, size: 50 } }, { token: admin });
    expect(logs.body.code).toBe(0);
    expect(logs.body.recordCount).toBeGreaterThan(0);
    expect(logs.body.data.some((r) => r.account === 'sysadmin' && r.action === 'login' && r.result === 'success')).toBe(true);
    expect(JSON.stringify(logs.body.data)).not.toContain(sha256('Sysadmin#2026'));
    const staff = await signIn(server, 'staff', 'Staff#2026');
    const denied = await call(server, 'POST', '/qy/api/OperateLog/Search', { page: { index: 1, size: 50 } }, { token: staff, language: 'en-US' });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ code: codes.noPermission, msg: 'No permission', data: null });
  });
});

describe('gate deployment (MJ_SYSTEM=21): national-crypto digests', () => {
  it('signs in with the SM3 digest, not the SHA-256 one, and reports card login', async () => {
    const { createHash } = await import('node:crypto');
    const server = await startServer('sqlite', { env: { MJ_SYSTEM: '21' } });
    try {
      const sm3 = createHash('sm3').update('Staff#2026', 'utf8').digest('hex');
      const ok = await call(server, 'POST', apiPaths.webLogin, { user: { account: 'staff', password: sm3, tenantCode: '1001' } });
      expect(ok.body.code).toBe(0);
      const sha = await call(server, 'POST', apiPaths.webLogin, { user: { account: 'staff', password: sha256('Staff#2026'), tenantCode: '1001' } });
      expect(sha.body.code).toBe(codes.accountOrPasswordWrong);
      const settings = await call<{ cardLogin: boolean; mjSystem: number }>(server, 'GET', apiPaths.tenantSettings);
      expect(settings.body.data).toMatchObject({ cardLogin: true, mjSystem: 21 });
      const users = await server.handle.db.selectFrom('users').select('digest_mode').distinct().execute();
      expect(users).toEqual([{ digest_mode: 'sm3' }]);
    } finally {
      await server.close();
    }
  });
});
