import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationLogRow, OperationLogSearchRequest } from '@campus/contracts';
import { apiPaths, codes, operationLogPaging } from '@campus/contracts';
import { call, databases, signIn, startServer } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';

const minute = 60_000;
/** Rows the tests add, long before any sign-in of the tests, so a time range isolates them. */
const base = Date.UTC(2001, 0, 1);
const at = (i: number) => base + i * minute;
const ours = { startTime: at(0), endTime: at(99) };

interface Seeded {
  id: string;
  tenant: string;
  account: string;
  action: OperationLogRow['action'];
  result: OperationLogRow['result'];
  minute: number;
}

const seeded: Seeded[] = [
  { id: 'op-00', tenant: '1001', account: 'alice', action: 'login', result: 'success', minute: 0 },
  { id: 'op-01', tenant: '1001', account: 'ALICE.admin', action: 'login', result: 'failure', minute: 1 },
  { id: 'op-02', tenant: '1001', account: 'bob%ops', action: 'logout', result: 'success', minute: 2 },
  { id: 'op-03', tenant: '1001', account: 'bob_ops', action: 'change-password', result: 'success', minute: 3 },
  { id: 'op-04', tenant: '1001', account: 'bobXops', action: 'lock', result: 'locked', minute: 4 },
  { id: 'op-05', tenant: '1001', account: 'carol\\back', action: 'ldap-login', result: 'no-local-account', minute: 5 },
  { id: 'op-06', tenant: '1001', account: 'Émile', action: 'login', result: 'success', minute: 6 },
  { id: 'op-07', tenant: '1002', account: 'alice', action: 'login', result: 'success', minute: 7 },
  // 25 rows for paging; 'pager-20' and 'pager-21' share one time
  ...Array.from({ length: 25 }, (_, i): Seeded => ({
    id: `op-${String(10 + i)}`,
    tenant: '1001',
    account: `pager-${String(i).padStart(2, '0')}`,
    action: 'login',
    result: 'success',
    minute: i === 21 ? 30 : 10 + i,
  })),
];

function search(server: TestServer, body: unknown, token?: string) {
  return call<OperationLogRow[]>(server, 'POST', apiPaths.operationLogSearch, body, { token, language: 'en-US' });
}

describe.each(databases)('operation log search (%s)', (kind) => {
  let server: TestServer;
  let admin: string;
  const page = { index: 1, size: 100 };
  const accounts = async (filters: Omit<OperationLogSearchRequest, 'page'>) => {
    const reply = await search(server, { page, ...ours, ...filters }, admin);
    expect(reply.body.code).toBe(codes.ok);
    expect(reply.body.recordCount).toBe(reply.body.data.length);
    return reply.body.data.map((row) => row.account);
  };

  beforeAll(async () => {
    server = await startServer(kind);
    admin = await signIn(server, 'sysadmin', 'Sysadmin#2026');
    await server.handle.db
      .insertInto('operation_logs')
      .values(seeded.map((s) => ({ id: s.id, tenant_code: s.tenant, account: s.account, action: s.action, result: s.result, client_ip: '10.0.0.9', detail: s.id === 'op-04' ? 'until later' : null, created_at: at(s.minute) })))
      .execute();
  });
  afterAll(async () => {
    await server?.close();
  });

  it("answers the caller's tenant only, newest first, each field as stored", async () => {
    const reply = await search(server, { page: { index: 1, size: 3 }, startTime: at(0), endTime: at(6) }, admin);
    expect(reply.status).toBe(200);
    expect(reply.body.recordCount).toBe(7);
    expect(reply.body.data.map((row) => row.id)).toEqual(['op-06', 'op-05', 'op-04']);
    expect(reply.body.data[2]).toEqual({ id: 'op-04', tenantCode: '1001', account: 'bobXops', action: 'lock', result: 'locked', clientIp: '10.0.0.9', detail: 'until later', createdAt: at(4) });
    const all = await accounts({});
    expect(all.filter((a) => a === 'alice')).toHaveLength(1); // the 1002 row stays in 1002
  });

  it('sign-ins through the API are in the log', async () => {
    const now = server.clock.now();
    const reply = await search(server, { page: { index: 1, size: 10 }, startTime: now - minute, operator: 'sysadmin' }, admin);
    expect(reply.body.data[0]).toMatchObject({ account: 'sysadmin', action: 'login', result: 'success', tenantCode: '1001' });
  });

  it('pages: 10, 10, 5, then none; recordCount is always the total; pages never overlap', async () => {
    const range = { startTime: at(10), endTime: at(34) };
    const ids: string[] = [];
    for (const [index, expected] of [[1, 10], [2, 10], [3, 5], [4, 0]] as const) {
      const reply = await search(server, { page: { index, size: 10 }, ...range }, admin);
      expect(reply.body.recordCount).toBe(25);
      expect(reply.body.data).toHaveLength(expected);
      ids.push(...reply.body.data.map((row) => row.id));
    }
    expect(new Set(ids).size).toBe(25);
    expect(ids[0]).toBe('op-34');
    expect(ids.at(-1)).toBe('op-10');
    // rows of one time keep one order across pages
    const one = { startTime: at(30), endTime: at(30) };
    const first = await search(server, { page: { index: 1, size: 1 }, ...one }, admin);
    const second = await search(server, { page: { index: 2, size: 1 }, ...one }, admin);
    expect(first.body.recordCount).toBe(2);
    expect([first.body.data[0]?.id, second.body.data[0]?.id].sort()).toEqual(['op-30', 'op-31']);
  });

  it('time bounds are inclusive; either alone filters its side', async () => {
    expect(await accounts({ startTime: at(2), endTime: at(4) })).toEqual(['bobXops', 'bob_ops', 'bob%ops']);
    expect(await accounts({ startTime: at(2) + 1, endTime: at(4) - 1 })).toEqual(['bob_ops']);
    const before = await search(server, { page, endTime: at(1) }, admin);
    expect(before.body.data.map((row) => row.account)).toEqual(['ALICE.admin', 'alice']);
    const after = await search(server, { page, startTime: at(34) }, admin);
    // pager-24 and every sign-in of these tests (all of them now)
    expect(after.body.data.at(-1)?.account).toBe('pager-24');
  });

  it('operator: part of the account, case-insensitive', async () => {
    expect(await accounts({ operator: 'alice' })).toEqual(['ALICE.admin', 'alice']);
    expect(await accounts({ operator: 'ADMIN' })).toEqual(['ALICE.admin']);
    expect(await accounts({ operator: 'ops' })).toEqual(['bobXops', 'bob_ops', 'bob%ops']);
    // letters beyond ASCII fold too, the same on SQLite and PostgreSQL
    expect(await accounts({ operator: 'émile' })).toEqual(['Émile']);
    expect(await accounts({ operator: 'ÉMILE' })).toEqual(['Émile']);
    expect(await accounts({ operator: 'nobody' })).toEqual([]);
  });

  it('operator: % and _ match themselves, not any text or any character; so does a backslash', async () => {
    expect(await accounts({ operator: '%' })).toEqual(['bob%ops']);
    expect(await accounts({ operator: '_' })).toEqual(['bob_ops']);
    expect(await accounts({ operator: 'bob_ops' })).toEqual(['bob_ops']);
    expect(await accounts({ operator: 'bob%' })).toEqual(['bob%ops']);
    expect(await accounts({ operator: 'b%s' })).toEqual([]);
    expect(await accounts({ operator: '\\' })).toEqual(['carol\\back']);
    expect(await accounts({ operator: 'l\\b' })).toEqual(['carol\\back']);
    expect(await accounts({ operator: '\\%' })).toEqual([]);
  });

  it('action: one kind of operation', async () => {
    expect(await accounts({ action: 'lock' })).toEqual(['bobXops']);
    expect(await accounts({ action: 'ldap-login' })).toEqual(['carol\\back']);
    expect(await accounts({ action: 'change-password' })).toEqual(['bob_ops']);
  });

  it('filters combine', async () => {
    expect(await accounts({ operator: 'bob', action: 'logout' })).toEqual(['bob%ops']);
    expect(await accounts({ operator: 'ALICE', action: 'login', startTime: at(1), endTime: at(1) })).toEqual(['ALICE.admin']);
    expect(await accounts({ operator: 'alice', action: 'login', startTime: at(0), endTime: at(0) })).toEqual(['alice']);
    expect(await accounts({ operator: 'pager', action: 'login', startTime: at(20), endTime: at(22) })).toEqual(['pager-12', 'pager-11', 'pager-10']);
    expect(await accounts({ operator: 'bob', action: 'login' })).toEqual([]);
    const paged = await search(server, { page: { index: 2, size: 4 }, ...ours, operator: 'PAGER-1' }, admin);
    expect(paged.body.recordCount).toBe(10);
    expect(paged.body.data.map((row) => row.account)).toEqual(['pager-15', 'pager-14', 'pager-13', 'pager-12']);
  });

  it('a holder of function code 1001030 in qy may read it without being an administrator (multi)', async () => {
    const multi = await signIn(server, 'multi', 'Multi#2026', '1001');
    const reply = await search(server, { page, ...ours, operator: 'alice' }, multi);
    expect(reply.status).toBe(200);
    expect(reply.body.data.map((row) => row.account)).toEqual(['ALICE.admin', 'alice']);
  });

  it('anyone else: HTTP 403, before the body is checked; 401 before both', async () => {
    // (nosub gets no session at all: api-route-rules.test.ts)
    for (const [account, password, tenant] of [['staff', 'Staff#2026', '1001'], ['multi', 'Multi#2026', '1002']] as const) {
      const token = await signIn(server, account, password, tenant);
      const reply = await search(server, { page }, token);
      expect([account, tenant, reply.status]).toEqual([account, tenant, 403]);
      expect(reply.body).toEqual({ code: codes.noPermission, msg: 'No permission', data: null });
      expect((await search(server, { page: { index: 0, size: 0 } }, token)).status).toBe(403);
    }
    const none = await search(server, { page });
    expect(none.status).toBe(401);
    expect(none.body.code).toBe(codes.tokenInvalid);
    expect((await search(server, { page }, 'not-a-token')).status).toBe(401);
    expect((await search(server, { page: { index: 0, size: 0 } })).status).toBe(401);
  });

  it.each([
    ['page size 0', { page: { index: 1, size: 0 } }, 'size'],
    [`page size ${operationLogPaging.maxPageSize + 1}`, { page: { index: 1, size: operationLogPaging.maxPageSize + 1 } }, 'size'],
    ['page index 0', { page: { index: 0, size: 10 } }, 'index'],
    ['no page', {}, 'page'],
    ['startTime as text', { page, startTime: '2026-01-01' }, 'startTime'],
    ['a negative endTime', { page, endTime: -1 }, 'endTime'],
    ['endTime before startTime', { page, startTime: base + 1, endTime: base }, 'endTime'],
    ['an empty operator', { page, operator: '' }, 'operator'],
    ['an operator of 65 characters', { page, operator: 'x'.repeat(65) }, 'operator'],
    ['an operator that is not text', { page, operator: 42 }, 'operator'],
    ['an unknown action', { page, action: 'delete-everything' }, 'action'],
    ['an action in the wrong case', { page, action: 'LOGIN' }, 'action'],
  ])('%s: HTTP 400 naming the field', async (_name, body, field) => {
    const reply = await search(server, body, admin);
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe(codes.badRequest);
    expect(reply.body.msg).toContain(field);
    expect(reply.text).not.toMatch(/\bat .+\.ts:\d+/);
  });

  it(`accepts the largest page (${operationLogPaging.maxPageSize}) and an operator of 64 characters`, async () => {
    expect((await search(server, { page: { index: 1, size: operationLogPaging.maxPageSize } }, admin)).body.code).toBe(codes.ok);
    const reply = await search(server, { page, operator: 'x'.repeat(64) }, admin);
    expect(reply.body.code).toBe(codes.ok);
    expect(reply.body.data).toEqual([]);
  });
});
