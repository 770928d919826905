import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import pg from 'pg';
import { apiPaths, codes, licenceStates, operationLogPermission } from '@campus/contracts';
import type { MenuData, PermissionEntry } from '@campus/contracts';
import { changeStampTables } from '../../src/db/change-stamps.ts';
import type { ChangeStampKind } from '../../src/db/change-stamps.ts';
import { call, databases, signIn, startServer } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';

// Signed-in calls read the change stamps with their session and keep the licence in effect, users' grants and the
// menu catalogue under them (db/change-stamps.ts). Here the data is changed in the database itself, as another node
// or an operator's SQL would change it, behind the back of the server under test: each change must show at the next
// call, never after a cache time.
describe.each(databases)('change stamps (%s)', (kind) => {
  let server: TestServer;
  let admin: string;
  let staff: string;
  let staffId: string;

  beforeAll(async () => {
    server = await startServer(kind);
    admin = await signIn(server, 'sysadmin', 'Sysadmin#2026');
    staff = await signIn(server, 'staff', 'Staff#2026');
    staffId = (await server.handle.db.selectFrom('users').select('id').where('account', '=', 'staff').where('tenant_code', '=', '1001').executeTakeFirstOrThrow()).id;
  });
  afterAll(() => server?.close());

  const stamps = async () => server.handle.db.selectFrom('change_stamps').selectAll().executeTakeFirstOrThrow();
  const systems = async (token: string) => (await call<MenuData>(server, 'GET', apiPaths.menus, undefined, { token, language: 'en-US' })).body.data.menuBaseList.map((s) => s.appNo);
  const pagePaths = async (token: string) => (await call<MenuData>(server, 'GET', apiPaths.menus, undefined, { token, language: 'en-US' })).body.data.menuList.map((p) => p.path);
  const permissions = async (token: string) => (await call<PermissionEntry[]>(server, 'GET', apiPaths.permissions, undefined, { token })).body.data;
  const logSearch = (token: string) => call(server, 'POST', apiPaths.operationLogSearch, { page: { index: 1, size: 5 } }, { token, language: 'en-US' });

  it('every insert, update and delete of a kind’s tables raises its stamp, and only its own', async () => {
    const row = (table: string) => {
      switch (table) {
        case 'licences':
          return sql`insert into licences (id, code, file_text, file_hash, is_trial, customer_no, customer_name, prd_pkg_category, is_formal, begin_time, end_time, emp_count, is_has_mobile, is_permit_openapi, is_limit_device, infos, devices, activate_time, state, created_at)
            values ('stamp-test', 'STAMP-TEST', null, null, 1, 'x', 'x', 'x', 0, null, null, 1, 0, 0, 0, '[]', '[]', null, 0, 0)`;
        case 'permission_grants':
          return sql`insert into permission_grants (user_id, app_code, func_ids) values (${staffId}, 'stamp-test', '[]')`;
        case 'sub_app_registrations':
          return sql`insert into sub_app_registrations (app_no, entry, script_origins, function_codes, registered_at, registered_by) values ('stamp-test', '/subapps/stamp-test/', '[]', '[]', 0, 'test')`;
        case 'menu_systems':
          return sql`insert into menu_systems (id, app_no, app_id, front_routing_addr, label_i18n, sort_num) values ('stamp-test', 'stamp-test', 'stamp-test', '/stamp-test/', '{}', 1)`;
        default:
          return sql`insert into menu_pages (id, app_no, parent_id, path, name, title_i18n, sort_num, is_func_right, func_right_perms, is_side) values ('stamp-test', 'stamp-test', null, '/stamp-test', 'stampTest', '{}', 1, 0, '[]', 1)`;
      }
    };
    // per table: the row's key, and a column to update with a value it takes
    const changes: Record<string, [key: ReturnType<typeof sql>, column: string, value: string | number]> = {
      licences: [sql`id = 'stamp-test'`, 'customer_name', 'y'],
      permission_grants: [sql`app_code = 'stamp-test'`, 'func_ids', '["1"]'],
      sub_app_registrations: [sql`app_no = 'stamp-test'`, 'entry', '/subapps/stamp-test-2/'],
      menu_systems: [sql`id = 'stamp-test'`, 'sort_num', 2],
      menu_pages: [sql`id = 'stamp-test'`, 'sort_num', 2],
    };
    for (const kind of Object.keys(changeStampTables) as ChangeStampKind[]) {
      for (const table of changeStampTables[kind]) {
        const [key, column, value] = changes[table]!;
        const statements = [row(table), sql`update ${sql.table(table)} set ${sql.ref(column)} = ${sql.lit(value)} where ${key}`, sql`delete from ${sql.table(table)} where ${key}`];
        for (const statement of statements) {
          const before = await stamps();
          await statement.execute(server.handle.db);
          const after = await stamps();
          for (const other of Object.keys(changeStampTables) as ChangeStampKind[]) {
            if (other === kind) expect(Number(after[other]), `${table}: ${kind}`).toBeGreaterThan(Number(before[other]));
            else expect(Number(after[other]), `${table}: ${other}`).toBe(Number(before[other]));
          }
        }
      }
    }
  });

  it('a grant changed in the database shows at the next call: menus, permissions and the function rights a route checks', async () => {
    expect(await systems(staff)).toEqual(['qy', 'kq']);
    // staff holds qy without the operation log's function code: refused, and that answer came from kept grants
    expect((await logSearch(staff)).body.code).toBe(codes.noPermission);
    const qy = await server.handle.db.selectFrom('permission_grants').select('func_ids').where('user_id', '=', staffId).where('app_code', '=', 'qy').executeTakeFirstOrThrow();
    const withLog = JSON.stringify([...(JSON.parse(qy.func_ids) as string[]), operationLogPermission]);
    await server.handle.db.updateTable('permission_grants').set({ func_ids: withLog }).where('user_id', '=', staffId).where('app_code', '=', 'qy').execute();
    await server.handle.db.insertInto('permission_grants').values({ user_id: staffId, app_code: 'mj', func_ids: '["1003000"]' }).execute();
    expect((await logSearch(staff)).body.code).toBe(codes.ok);
    expect(await systems(staff)).toEqual(['qy', 'mj', 'kq']);
    expect((await permissions(staff)).find((p) => p.appCode === 'mj')).toEqual({ appCode: 'mj', ids: ['1003000'] });

    await server.handle.db.deleteFrom('permission_grants').where('user_id', '=', staffId).where('app_code', '=', 'mj').execute();
    await server.handle.db.updateTable('permission_grants').set({ func_ids: qy.func_ids }).where('user_id', '=', staffId).where('app_code', '=', 'qy').execute();
    expect(await systems(staff)).toEqual(['qy', 'kq']);
    expect((await permissions(staff)).map((p) => p.appCode)).toEqual(['qy', 'kq']);
    expect((await logSearch(staff)).body.code).toBe(codes.noPermission);
  });

  it('a page added to or removed from the catalogue in the database shows at the next call (no cache time)', async () => {
    expect(await pagePaths(admin)).not.toContain('/qy/stamped-report');
    await server.handle.db
      .insertInto('menu_pages')
      .values({ id: 'qy-stamped-report', app_no: 'qy', parent_id: null, path: '/qy/stamped-report', name: 'stampedReport', title_i18n: JSON.stringify({ 'en-US': 'Stamped', 'zh-CN': '报表', 'zh-MO': '報表' }), sort_num: 9999, is_func_right: 0, func_right_perms: '[]', is_side: 1, icon: null, frame_url: null })
      .execute();
    expect(await pagePaths(admin)).toContain('/qy/stamped-report');
    await server.handle.db.deleteFrom('menu_pages').where('id', '=', 'qy-stamped-report').execute();
    expect(await pagePaths(admin)).not.toContain('/qy/stamped-report');
  });

  it('the licence in effect changed in the database holds at the next call', async () => {
    const active = await server.handle.db.selectFrom('licences').select('id').where('state', '=', licenceStates.normal).executeTakeFirstOrThrow();
    expect((await logSearch(admin)).body.code).toBe(codes.ok);
    await server.handle.db.updateTable('licences').set({ state: licenceStates.replaced }).where('id', '=', active.id).execute();
    const refused = await logSearch(admin);
    expect([refused.status, refused.body.code]).toEqual([403, codes.licenceRequired]);
    await server.handle.db.updateTable('licences').set({ state: licenceStates.normal }).where('id', '=', active.id).execute();
    expect((await logSearch(admin)).body.code).toBe(codes.ok);
  });

  it('the clock set back, as the latest time seen in the database says, holds at the next call', async () => {
    expect((await logSearch(admin)).body.code).toBe(codes.ok);
    const installation = await server.handle.db.selectFrom('installation').select('latest_seen').executeTakeFirstOrThrow();
    // another node saw a time a day ahead of this one's clock
    await server.handle.db.updateTable('installation').set({ latest_seen: server.clock.now() + 86_400_000 }).execute();
    expect((await logSearch(admin)).body.code).toBe(codes.licenceRequired);
    await server.handle.db.updateTable('installation').set({ latest_seen: Number(installation.latest_seen) }).execute();
    expect((await logSearch(admin)).body.code).toBe(codes.ok);
  });

  it('stamps that go back with the database (a restore, a fail-over to a standby behind): the data read again, not kept', async () => {
    const before = await stamps();
    expect(await systems(staff)).toEqual(['qy', 'kq']);
    await server.handle.db.insertInto('permission_grants').values({ user_id: staffId, app_code: 'mj', func_ids: '["1003000"]' }).execute();
    await server.handle.db.insertInto('menu_pages').values({ id: 'qy-lost-report', app_no: 'qy', parent_id: null, path: '/qy/lost-report', name: 'lostReport', title_i18n: JSON.stringify({ 'en-US': 'Lost', 'zh-CN': '丢失', 'zh-MO': '丟失' }), sort_num: 9999, is_func_right: 0, func_right_perms: '[]', is_side: 1, icon: null, frame_url: null }).execute();
    expect(await systems(staff)).toEqual(['qy', 'mj', 'kq']);
    expect(await pagePaths(admin)).toContain('/qy/lost-report');
    // the database as it was before those changes, stamps included
    await server.handle.db.deleteFrom('permission_grants').where('user_id', '=', staffId).where('app_code', '=', 'mj').execute();
    await server.handle.db.deleteFrom('menu_pages').where('id', '=', 'qy-lost-report').execute();
    await server.handle.db.updateTable('change_stamps').set({ grants: before.grants, catalogue: before.catalogue }).execute();
    expect(await systems(staff)).toEqual(['qy', 'kq']);
    expect((await permissions(staff)).map((p) => p.appCode)).toEqual(['qy', 'kq']);
    expect(await pagePaths(admin)).not.toContain('/qy/lost-report');
  });

  if (kind === 'postgres') {
    it('a transaction that changed a grant does not hold the stamps: another changing a second grant commits, then the first takes that one too', async () => {
      const url = server.config.databaseUrl;
      if (!url) throw new Error('no database URL');
      const first = new pg.Client({ connectionString: url });
      const second = new pg.Client({ connectionString: url });
      await Promise.all([first.connect(), second.connect()]);
      try {
        await server.handle.db.insertInto('permission_grants').values([
          { user_id: staffId, app_code: 'order-a', func_ids: '[]' },
          { user_id: staffId, app_code: 'order-b', func_ids: '[]' },
        ]).execute();
        const before = Number((await stamps()).grants);
        const change = (client: pg.Client, app: string) => client.query(`update permission_grants set func_ids = '["1"]' where user_id = $1 and app_code = $2`, [staffId, app]);
        await first.query('begin');
        await second.query('begin');
        await change(first, 'order-a');
        // the second changes b and commits; meanwhile the first wants b too, and waits for the second to commit
        // (with the stamp bumped at each statement, the second's change would wait for the first's hold on the stamps)
        const secondDone = change(second, 'order-b').then(() => second.query('commit'));
        await new Promise((resolve) => setTimeout(resolve, 200));
        const firstDone = change(first, 'order-b').then(() => first.query('commit'));
        await expect(Promise.all([firstDone, secondDone])).resolves.toBeDefined();
        expect(Number((await stamps()).grants)).toBeGreaterThan(before);
      } finally {
        await Promise.allSettled([first.end(), second.end()]);
        await server.handle.db.deleteFrom('permission_grants').where('user_id', '=', staffId).where('app_code', 'in', ['order-a', 'order-b']).execute();
      }
    });
  }

  it('without the stamps’ row, every call reads the data itself, and changes still show at once', async () => {
    const row = await stamps();
    await server.handle.db.deleteFrom('change_stamps').execute();
    try {
      expect(await systems(staff)).toEqual(['qy', 'kq']);
      await server.handle.db.insertInto('permission_grants').values({ user_id: staffId, app_code: 'mj', func_ids: '["1003000"]' }).execute();
      expect(await systems(staff)).toEqual(['qy', 'mj', 'kq']);
      await server.handle.db.deleteFrom('permission_grants').where('user_id', '=', staffId).where('app_code', '=', 'mj').execute();
      expect(await systems(staff)).toEqual(['qy', 'kq']);
    } finally {
      await server.handle.db.insertInto('change_stamps').values(row).execute();
    }
    expect(await systems(staff)).toEqual(['qy', 'kq']);
  });
});
