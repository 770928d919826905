import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, codeMessage, codes } from '@campus/contracts';
import type { LicencePermission, LicenceSearchReply, MenuData, SubAppEntry, SubAppManifest } from '@campus/contracts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { migrateToLatest, migrateUpTo } from '../../src/db/migrations.ts';
import { issueLicenceFile } from '../../src/modules/licence/licence-file.ts';
import { call, databases, freshDatabase, signIn, startServer, tempDir } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';
import { edKey, samplePayload } from '../support/licence-helpers.ts';

// Issue 46 item 2: what the whole installation serves (sub-app registrations and their origins, licences) is changed
// by the operator on the server or an installation administrator he marks; a tenant's system administrator governs
// his own tenant (docs/installation-and-tenants.md).

const root = path.resolve(import.meta.dirname, '..', '..', '..', '..');

function manifest(overrides: Partial<SubAppManifest> = {}): SubAppManifest {
  return {
    appNo: 'ext',
    label: { 'en-US': 'Partner Orders', 'zh-CN': '合作伙伴订单', 'zh-MO': '合作夥伴訂單' },
    basePath: 'ext',
    entry: 'http://127.0.0.1:7311/orders/',
    scriptOrigins: [],
    functionCodes: ['9001000'],
    pages: [{ id: 'ext-orders', path: '/ext/orders', name: 'orders', title: { 'en-US': 'Orders', 'zh-CN': '订单', 'zh-MO': '訂單' } }],
    ...overrides,
  };
}

const evil = () => manifest({ appNo: 'evil', basePath: 'evil', entry: 'https://evil-1002.example/', pages: [{ id: 'evil-a', path: '/evil/a', name: 'a', title: { 'en-US': 'A', 'zh-CN': 'A', 'zh-MO': 'A' } }] });

describe.each(databases)('the installation and its tenants (%s)', (kind) => {
  let server: TestServer;
  /** sysadmin of 1001: the demo's installation administrator. */
  let admin: string;
  /** multi of 1002, made a system administrator of 1002 (not of the installation). */
  let other: string;

  const post = (p: string, body: unknown, token: string, language = 'en-US') => call(server, 'POST', p, body, { token, language });
  const systems = async (token: string) => (await call<MenuData>(server, 'GET', apiPaths.menus, undefined, { token, language: 'en-US' })).body.data.menuBaseList.map((s) => s.appNo);
  const registry = async () => (await call<SubAppEntry[]>(server, 'GET', apiPaths.subAppRegistry, undefined, { token: admin })).body.data;
  /** The log's rows of one action, sorted (the test clock stands still: they share one time). */
  const logRows = async (action: string) =>
    (await server.handle.db.selectFrom('operation_logs').select(['tenant_code', 'account', 'result', 'detail']).where('action', '=', action).execute()).map(
      (r) => `${r.tenant_code || '(installation)'} ${r.account} ${r.result} ${r.detail ?? ''}`,
    ).sort();
  const campus = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/cli/campus.ts'), ...args], {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'test', DATA_DIR: server.config.dataDir, DATABASE_URL: server.config.databaseUrl ?? '' },
      encoding: 'utf8',
    });

  beforeAll(async () => {
    server = await startServer(kind);
    await server.handle.db.updateTable('users').set({ is_system_admin: 1 }).where('tenant_code', '=', '1002').where('account', '=', 'multi').execute();
    admin = await signIn(server, 'sysadmin', 'Sysadmin#2026');
    other = await signIn(server, 'multi', 'Multi#2026', '1002');
    expect((await post(apiPaths.subAppRegister, manifest(), admin)).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  it("another tenant's system administrator may not register, replace or remove a sub-system (281)", async () => {
    const refusals = [
      await post(apiPaths.subAppRegister, evil(), other),
      await post(apiPaths.subAppRegister, manifest({ replace: true, entry: 'https://evil-1002.example/' }), other),
      await post(apiPaths.subAppRemove, { appNo: 'ext' }, other),
    ];
    for (const reply of refusals) {
      expect([reply.status, reply.body.code, reply.body.msg]).toEqual([403, codes.installationAdminRequired, codeMessage(codes.installationAdminRequired, 'en-US')]);
    }
    expect((await post(apiPaths.subAppRemove, { appNo: 'ext' }, other, 'zh-MO')).body.msg).toBe(codeMessage(codes.installationAdminRequired, 'zh-MO'));
    // nothing changed what 1001 is served: the entry, the content policy, the systems
    expect((await registry()).find((e) => e.appNo === 'ext')?.entry).toBe('http://127.0.0.1:7311/orders/');
    expect((await registry()).map((e) => e.appNo)).not.toContain('evil');
    expect((await call(server, 'GET', apiPaths.health)).headers.get('content-security-policy')).not.toContain('evil-1002.example');
    expect(await systems(admin)).toContain('ext');
  });

  it('he grants and revokes within his own tenant only (282); in his tenant it is his to do, in its log', async () => {
    const outside = await post(apiPaths.subAppGrant, { appNo: 'ext', tenantCode: '1001', account: 'staff' }, other);
    expect([outside.status, outside.body.code, outside.body.msg]).toEqual([403, codes.grantOutsideTenant, 'You may grant or revoke only within your own tenant (1002), not in tenant 1001']);
    const revoke = await post(apiPaths.subAppRevoke, { appNo: 'ext', tenantCode: '1001', account: 'sysadmin' }, other, 'zh-CN');
    expect([revoke.status, revoke.body.code, revoke.body.msg]).toEqual([403, codes.grantOutsideTenant, '只能在本租户（1002）内授予或撤销，不能在租户 1001 中操作']);
    expect(await systems(admin)).toContain('ext');

    expect((await post(apiPaths.subAppGrant, { appNo: 'ext', tenantCode: '1002', account: 'multi' }, other)).body.code).toBe(codes.ok);
    expect(await systems(other)).toContain('ext');
    expect((await post(apiPaths.subAppRevoke, { appNo: 'ext', tenantCode: '1002', account: 'multi' }, other)).body.code).toBe(codes.ok);
    expect(await systems(other)).not.toContain('ext');
    expect(await logRows('sub-app-grant')).toEqual(['1002 multi success ext to 1002/multi']);
    expect(await logRows('sub-app-revoke')).toEqual(['1002 multi success ext from 1002/multi']);
  });

  it("1001's administrator grants within 1001; as installation administrator in 1002 too, in 1002's log and the installation's", async () => {
    expect((await post(apiPaths.subAppGrant, { appNo: 'ext', tenantCode: '1001', account: 'staff' }, admin)).body.code).toBe(codes.ok);
    expect((await post(apiPaths.subAppGrant, { appNo: 'ext', tenantCode: '1002', account: 'multi' }, admin)).body.code).toBe(codes.ok);
    expect(await systems(other)).toContain('ext');
    expect(await logRows('sub-app-grant')).toEqual([
      '(installation) sysadmin success ext to 1002/multi (by 1001/sysadmin)',
      '1001 sysadmin success ext to 1001/staff',
      '1002 multi success ext to 1002/multi',
      '1002 sysadmin success ext to 1002/multi (by 1001/sysadmin)',
    ]);
    // the registration is the installation's
    expect(await logRows('sub-app-register')).toEqual(['(installation) sysadmin success ext at /ext/ from http://127.0.0.1:7311/orders/']);
    // and every system administrator reads the installation's entries beside his tenant's
    const search = await call<{ tenantCode: string; action: string }[]>(server, 'POST', apiPaths.operationLogSearch, { page: { index: 1, size: 50 }, action: 'sub-app-register' }, { token: other });
    expect(search.body.data.map((r) => [r.tenantCode, r.action])).toEqual([['', 'sub-app-register']]);
  });

  it('licences are the installation\'s: another tenant\'s administrator views them, but uploads, activates and starts the trial nothing (281)', async () => {
    const permissionOf = async (token: string) => (await call<LicencePermission>(server, 'GET', apiPaths.licencePermission, undefined, { token })).body.data;
    expect(await permissionOf(other)).toMatchObject({ isSystemAdmin: true, isViewPermission: true, isAddOfficialPermission: false, isAddTrialPermission: false });
    expect(await permissionOf(admin)).toMatchObject({ isSystemAdmin: true, isViewPermission: true, isAddOfficialPermission: true });

    const listed = await call<LicenceSearchReply>(server, 'POST', apiPaths.licenceSearch, { page: { index: 1, size: 15 } }, { token: other });
    expect(listed.body.code).toBe(codes.ok);
    const id = listed.body.data.licenses[0]!.id;
    const now = server.clock.now();
    const file = issueLicenceFile(samplePayload({ code: 'TENANT-1002', beginTime: now - 86_400_000, endTime: now + 400 * 86_400_000 }), edKey);
    const upload = async (token: string) => {
      const form = new FormData();
      form.append('files', new Blob([file]), 'tenant.lic');
      const res = await fetch(`${server.url}${apiPaths.licenceUpload}`, { method: 'POST', headers: { token, language: 'en-US' }, body: form });
      return { status: res.status, body: (await res.json()) as { code: number; data: { id: string | null }[] } };
    };
    const refusals = [
      await upload(other),
      await post(apiPaths.licenceActivate, { id }, other),
      await post(apiPaths.addTrialLicence, { appIds: ['qy'], oprtPwd: 'x' }, other),
    ];
    expect(refusals.map((r) => [r.status, r.body.code])).toEqual(Array(3).fill([403, codes.installationAdminRequired]));
    expect(await logRows('licence-upload')).toEqual([]);

    // the installation administrator's upload and activation go to the installation-wide log
    const stored = await upload(admin);
    expect(stored.body.code).toBe(codes.ok);
    expect((await post(apiPaths.licenceActivate, { id: stored.body.data[0]!.id }, admin)).body.code).toBe(codes.ok);
    expect(await logRows('licence-upload')).toEqual(['(installation) sysadmin success accepted: TENANT-1002; refused: 0']);
    expect(await logRows('licence-activate')).toEqual(['(installation) sysadmin success TENANT-1002']);
  });

  it('the operator marks an installation administrator on the server, lists and clears the mark; each in the installation log', async () => {
    const marked = campus('admin', 'installation-admin', '--tenant', '1002', '--account', 'multi');
    expect([marked.status, marked.stdout, marked.stderr]).toEqual([0, '1002/multi is an installation administrator.\n', '']);
    expect(campus('admin', 'installation-admin', '--list').stdout).toBe('1001/sysadmin  System Administrator\n1002/multi  Multi Tenant (Branch)\n');
    // at his next call, without signing in again
    expect((await post(apiPaths.subAppRegister, evil(), other)).body.code).toBe(codes.ok);
    expect((await post(apiPaths.subAppRemove, { appNo: 'evil' }, other)).body.code).toBe(codes.ok);

    const cleared = campus('admin', 'installation-admin', '--tenant', '1002', '--account', 'multi', '--off');
    expect([cleared.status, cleared.stdout]).toEqual([0, '1002/multi is no longer an installation administrator.\n']);
    expect((await post(apiPaths.subAppRegister, evil(), other)).body.code).toBe(codes.installationAdminRequired);
    expect(campus('admin', 'installation-admin', '--list').stdout).toBe('1001/sysadmin  System Administrator\n');

    const notAdmin = campus('admin', 'installation-admin', '--tenant', '1001', '--account', 'staff');
    expect([notAdmin.status, notAdmin.stderr]).toEqual([2, '1001/staff is not a system administrator: only a system administrator can be an installation administrator\n']);
    expect(campus('admin', 'installation-admin', '--tenant', '1001', '--account', 'ghost').stderr).toBe('no account "ghost" in tenant 1001\n');
    expect(campus('admin', 'installation-admin', '--tenant', '1001').status).toBe(2);
    expect((await logRows('installation-admin')).map((r) => r.replace(/ cli:\S+ /, ' cli '))).toEqual([
      '(installation) cli success 1002/multi marked installation administrator',
      '(installation) cli success 1002/multi no longer installation administrator',
    ]);

    // without the mark, 1001's own administrator governs 1001 alone
    expect(campus('admin', 'installation-admin', '--tenant', '1001', '--account', 'sysadmin', '--off').status).toBe(0);
    expect((await post(apiPaths.subAppRegister, evil(), admin)).body.code).toBe(codes.installationAdminRequired);
    expect((await post(apiPaths.subAppGrant, { appNo: 'ext', tenantCode: '1002', account: 'multi' }, admin)).body.code).toBe(codes.grantOutsideTenant);
    expect((await post(apiPaths.subAppRevoke, { appNo: 'ext', tenantCode: '1001', account: 'staff' }, admin)).body.code).toBe(codes.ok);
    expect((await post(apiPaths.subAppGrant, { appNo: 'ext', tenantCode: '1001', account: 'staff' }, admin)).body.code).toBe(codes.ok);
    expect(campus('admin', 'installation-admin', '--tenant', '1001', '--account', 'sysadmin').status).toBe(0);
  }, 120_000);
});

describe.each(databases)('migration 0021: the installation administrator (%s)', (kind) => {
  it("marks the default tenant's first enabled system administrator, who could change the installation before, and no one else", async () => {
    const dataDir = tempDir();
    const database = await freshDatabase(kind, dataDir);
    const handle = openDatabase(loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, ...(database.url ? { DATABASE_URL: database.url } : {}) }, dataDir));
    try {
      await migrateUpTo(handle.db, handle.dialect, '0019_master_token_issuer');
      const db = handle.db;
      for (const code of ['1001', '1002']) await sql`insert into tenants (code, name_i18n, system_name_i18n, created_at) values (${code}, '{}', '{}', 1)`.execute(db);
      const users: [string, string, number, number, number][] = [
        ['old-disabled', '1001', 1, 1, 1],
        ['first', '1001', 1, 0, 2],
        ['second', '1001', 1, 0, 3],
        ['staff', '1001', 0, 0, 0],
        ['branch', '1002', 1, 0, 0],
      ];
      for (const [id, tenant, isAdmin, disabled, created] of users) {
        await sql`insert into users (id, tenant_code, account, name, password_hash, digest_mode, is_system_admin, is_disabled, is_first_login, language, utc_diff, created_at)
          values (${id}, ${tenant}, ${id}, ${id}, 'x', 'sha256', ${isAdmin}, ${disabled}, 0, 'en-US', 480, ${created})`.execute(db);
      }
      await migrateToLatest(handle.db, handle.dialect);
      const marked = await db.selectFrom('users').select('id').where('is_installation_admin', '=', 1).execute();
      expect(marked.map((u) => u.id)).toEqual(['first']);
    } finally {
      await handle.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
