import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HomeFigures, LicencePermission } from '@campus/contracts';
import { apiPaths, codes } from '@campus/contracts';
import { createServices } from '../../src/services.ts';
import { call, databases, signIn, startServer } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';

const minute = 60_000;

function figures(server: TestServer, token?: string) {
  return call<HomeFigures>(server, 'GET', apiPaths.qyHomeFigures, undefined, { token, language: 'en-US' });
}

describe.each(databases)('enterprise-data home figures (%s)', (kind) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startServer(kind);
    token = await signIn(server, 'sysadmin', 'Sysadmin#2026');
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A session row as another sign-in would have left it, relative to the server's clock. */
  async function sessionRow(id: string, tenantCode: string, times: { idle: number; absolute: number; revoked?: boolean }) {
    const now = server.clock.now();
    await server.handle.db
      .insertInto('sessions')
      .values({
        token_hash: `test-${id}`,
        user_id: `user-${id}`,
        tenant_code: tenantCode,
        account: id,
        login_type: 1,
        created_at: now - 10 * minute,
        last_seen_at: now - minute,
        idle_expires_at: now + times.idle,
        absolute_expires_at: now + times.absolute,
        revoked_at: times.revoked ? now - minute : null,
      })
      .execute();
  }

  it("tenant 1001 of the demo: 48 employees in 6 departments, the caller's session, the licence in effect", async () => {
    const reply = await figures(server, token);
    expect(reply.status).toBe(200);
    expect(reply.body.code).toBe(codes.ok);
    expect(reply.body.data).toEqual({
      employeeCount: 48,
      departmentCount: 6,
      activeSessionCount: 1,
      licence: { isNormal: true, licenseType: 2, licenseState: 5 },
    });
    expect(reply.headers.get('cache-control')).toBe('no-store');
  });

  it('the demo organisation is fixed: one root department, the others under it, 8 employees each, codes E0001 to E0048', async () => {
    const db = server.handle.db;
    const departments = await db.selectFrom('departments').selectAll().where('tenant_code', '=', '1001').orderBy('sort_num').execute();
    expect(departments.map((d) => d.name)).toEqual(['Head Office', 'Administration', 'Finance', 'Human Resources', 'Security', 'Facilities']);
    expect(departments.filter((d) => d.parent_id === null)).toHaveLength(1);
    expect(new Set(departments.slice(1).map((d) => d.parent_id))).toEqual(new Set([departments[0]?.id]));
    const employees = await db.selectFrom('employees').selectAll().where('tenant_code', '=', '1001').orderBy('code').execute();
    expect(employees.map((e) => e.code)).toEqual(Array.from({ length: 48 }, (_, i) => `E${String(i + 1).padStart(4, '0')}`));
    for (const d of departments) expect(employees.filter((e) => e.department_id === d.id)).toHaveLength(8);
    expect(employees[0]?.name).toMatch(/^\S+ \S+$/);
  });

  it("counts the live sessions of the caller's tenant only: not logged out, not past idle or absolute expiry", async () => {
    const staff = await signIn(server, 'staff', 'Staff#2026');
    expect((await figures(server, token)).body.data.activeSessionCount).toBe(2);
    // a session of the other tenant is not counted
    await signIn(server, 'multi', 'Multi#2026', '1002');
    expect((await figures(server, token)).body.data.activeSessionCount).toBe(2);
    expect((await call(server, 'POST', apiPaths.logout, {}, { token: staff })).body.code).toBe(codes.ok);
    expect((await figures(server, token)).body.data.activeSessionCount).toBe(1);

    await sessionRow('live', '1001', { idle: 5 * minute, absolute: 60 * minute });
    await sessionRow('revoked', '1001', { idle: 5 * minute, absolute: 60 * minute, revoked: true });
    await sessionRow('idle-over', '1001', { idle: -1, absolute: 60 * minute });
    await sessionRow('idle-now', '1001', { idle: 0, absolute: 60 * minute });
    await sessionRow('absolute-over', '1001', { idle: 5 * minute, absolute: -1 });
    await sessionRow('other-tenant', '1002', { idle: 5 * minute, absolute: 60 * minute });
    expect((await figures(server, token)).body.data.activeSessionCount).toBe(2);

    // 121 minutes later every session above has passed its idle expiry, the caller's too
    server.clock.advance(121 * minute);
    expect((await figures(server, token)).status).toBe(401);
    token = await signIn(server, 'sysadmin', 'Sysadmin#2026');
    expect((await figures(server, token)).body.data.activeSessionCount).toBe(1);
  });

  it('without the qy system in the permission list: HTTP 403 (multi in tenant 1002 holds kq and xf only)', async () => {
    const branch = await signIn(server, 'multi', 'Multi#2026', '1002');
    const refused = await figures(server, branch);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: codes.noPermission, msg: 'No permission', data: null });
  });

  it('any holder of qy may read them, not only administrators (staff)', async () => {
    const staff = await signIn(server, 'staff', 'Staff#2026');
    const reply = await figures(server, staff);
    expect(reply.body.code).toBe(codes.ok);
    expect(reply.body.data).toMatchObject({ employeeCount: 48, departmentCount: 6 });
  });

  it("tenant 1002 of the demo: 9 employees in 2 departments, once the user holds qy there", async () => {
    const multi = await server.handle.db.selectFrom('users').select('id').where('account', '=', 'multi').where('tenant_code', '=', '1002').executeTakeFirstOrThrow();
    await createServices(server.handle, server.config).menu.grant(multi.id, 'qy', []);
    const branch = await signIn(server, 'multi', 'Multi#2026', '1002');
    const reply = await figures(server, branch);
    expect(reply.body.code).toBe(codes.ok);
    expect(reply.body.data.employeeCount).toBe(9);
    expect(reply.body.data.departmentCount).toBe(2);
    // the multi sessions of tenant 1002 signed in before the clock moved have expired; two are live now
    expect(reply.body.data.activeSessionCount).toBe(2);
  });

  it('without a session: HTTP 401', async () => {
    const none = await figures(server);
    expect(none.status).toBe(401);
    expect(none.body.code).toBe(codes.tokenInvalid);
    expect((await figures(server, 'not-a-token')).status).toBe(401);
  });

  it('is described in the OpenAPI document', async () => {
    const json = (await (await fetch(`${server.url}/docs/json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    expect(json.paths[apiPaths.qyHomeFigures]?.get).toBeDefined();
  });
});

describe.each(databases)('enterprise-data home figures after a production seed (%s)', (kind) => {
  it('no demo departments or employees, no licence yet', async () => {
    const server = await startServer(kind, { env: { NODE_ENV: 'production' } });
    try {
      if (server.seed.mode !== 'production') throw new Error(`expected a production seed, got ${server.seed.mode}`);
      const db = server.handle.db;
      expect(await db.selectFrom('departments').select('id').execute()).toEqual([]);
      expect(await db.selectFrom('employees').select('id').execute()).toEqual([]);
      const token = await signIn(server, 'admin', server.seed.admin.password, server.seed.admin.tenantCode);
      const licence = await call<LicencePermission>(server, 'GET', apiPaths.licencePermission, undefined, { token });
      expect(licence.body.data).toMatchObject({ isNormal: false, licenseType: 4, licenseState: 0 });
      // and so the figures wait for a licence (route-rules.ts)
      const reply = await figures(server, token);
      expect(reply.status).toBe(403);
      expect(reply.body.code).toBe(codes.licenceRequired);
    } finally {
      await server.close();
    }
  });
});
