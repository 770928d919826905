import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackupLogRow } from '@campus/contracts';
import { apiPaths, codes } from '@campus/contracts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BackupLogRepository } from '../../src/modules/backup-log/backup-log-repository.ts';
import { BackupLogService } from '../../src/modules/backup-log/backup-log-service.ts';
import { takeBackup } from '../../src/modules/backup/backup-archive.ts';
import { call, databases, signIn, startServer } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';

const hour = 3_600_000;
const day = 24 * hour;
/** Rows the tests add, far before any real backup so a time range isolates them. */
const base = Date.UTC(2001, 0, 1);
const added = 23;
const timeOf = (i: number) => base + i * hour;
const addedRange = { startTime: timeOf(0), endTime: timeOf(added - 1) };

function search(server: TestServer, body: unknown, token?: string) {
  return call<BackupLogRow[]>(server, 'POST', apiPaths.backupLogSearch, body, { token, language: 'en-US' });
}

async function addRows(server: TestServer): Promise<void> {
  const rows = Array.from({ length: added }, (_, i) => ({
    id: `test-${String(i).padStart(2, '0')}`,
    name: `campus-db-test-${i}.sql.gz`,
    // rows 20 and 21 share one time: their order must still be fixed
    backup_time: i === 21 ? timeOf(20) : timeOf(i),
    file_path: '/var/backups/test/',
    addr: '127.0.0.1',
    retention_day: i % 2 === 0 ? 30 : 90,
    size: 1_000_000 + i,
    remarks: `row ${i}`,
    created_at: timeOf(i) + 90_000,
  }));
  await server.handle.db.insertInto('backup_logs').values(rows).execute();
}

describe.each(databases)('SearchBackupLog on a private deployment (%s)', (kind) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startServer(kind, { env: { PRIVATE_DEPLOYMENT: 'on' } });
    token = await signIn(server, 'sysadmin', 'Sysadmin#2026');
    await addRows(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lists a backup the campus command took: its real file, size, folder, host and retention, newest first', async () => {
    const taken = await takeBackup(
      { settings: server.config, db: server.handle.db, dialect: server.handle.dialect, backupLogs: new BackupLogService({ repo: new BackupLogRepository(server.handle.db), now: server.clock.now }), now: server.clock.now },
      { remarks: 'before the test' },
    );
    const reply = await search(server, { pageInfo: { index: 1, size: 500 } }, token);
    expect(reply.status).toBe(200);
    expect(reply.body.code).toBe(codes.ok);
    expect(reply.body.recordCount).toBe(added + 1);
    const [newest] = reply.body.data;
    expect(newest).toEqual({
      id: expect.any(String),
      name: taken.name,
      backupTime: server.clock.now(),
      logTime: server.clock.now(),
      filePath: server.config.backupDir,
      addr: os.hostname(),
      retentionDay: 14,
      size: fs.statSync(path.join(server.config.backupDir, taken.name)).size,
      remarks: 'Backup by hand: before the test',
    });
    expect(newest?.name).toMatch(/^campus-\d{8}-\d{6}\.tar\.gz$/);
  });

  it('any signed-in user may read them (the entry is shown to everyone on a private deployment)', async () => {
    const staff = await signIn(server, 'staff', 'Staff#2026');
    const reply = await search(server, { pageInfo: { index: 1, size: 10 } }, staff);
    expect(reply.body.code).toBe(codes.ok);
    expect(reply.body.data).toHaveLength(10);
  });

  describe('with rows of known times', () => {
    it('pages of 10: 10, 10, 3, then none; recordCount is always the total; pages never overlap', async () => {
      const ids: string[] = [];
      for (const [index, expected] of [[1, 10], [2, 10], [3, 3], [4, 0]] as const) {
        const reply = await search(server, { pageInfo: { index, size: 10 }, ...addedRange }, token);
        expect(reply.body.code).toBe(codes.ok);
        expect(reply.body.recordCount).toBe(added);
        expect(reply.body.data).toHaveLength(expected);
        ids.push(...reply.body.data.map((row) => row.id));
      }
      expect(new Set(ids).size).toBe(added);
      // newest first: row 22 leads, row 0 is last
      expect(ids[0]).toBe('test-22');
      expect(ids.at(-1)).toBe('test-00');
      const all = await search(server, { pageInfo: { index: 1, size: 500 }, ...addedRange }, token);
      expect(all.body.data.map((row) => row.id)).toEqual(ids);
    });

    it('answers each field of a row as stored', async () => {
      const reply = await search(server, { pageInfo: { index: 1, size: 1 }, startTime: timeOf(5), endTime: timeOf(5) }, token);
      expect(reply.body.recordCount).toBe(1);
      expect(reply.body.data).toEqual([
        {
          id: 'test-05',
          name: 'campus-db-test-5.sql.gz',
          backupTime: timeOf(5),
          logTime: timeOf(5) + 90_000,
          filePath: '/var/backups/test/',
          addr: '127.0.0.1',
          retentionDay: 90,
          size: 1_000_005,
          remarks: 'row 5',
        },
      ]);
    });

    it('both bounds are inclusive', async () => {
      const reply = await search(server, { pageInfo: { index: 1, size: 50 }, startTime: timeOf(5), endTime: timeOf(9) }, token);
      expect(reply.body.recordCount).toBe(5);
      expect(reply.body.data.map((row) => row.id)).toEqual(['test-09', 'test-08', 'test-07', 'test-06', 'test-05']);
      const inside = await search(server, { pageInfo: { index: 1, size: 50 }, startTime: timeOf(5) + 1, endTime: timeOf(9) - 1 }, token);
      expect(inside.body.data.map((row) => row.id)).toEqual(['test-08', 'test-07', 'test-06']);
      expect(inside.body.recordCount).toBe(3);
    });

    it('either bound alone filters on its side', async () => {
      const before = await search(server, { pageInfo: { index: 1, size: 50 }, endTime: timeOf(2) }, token);
      expect(before.body.data.map((row) => row.id)).toEqual(['test-02', 'test-01', 'test-00']);
      expect(before.body.recordCount).toBe(3);
      const after = await search(server, { pageInfo: { index: 1, size: 500 }, startTime: timeOf(22) }, token);
      // row 22 and every demo backup (all of them recent)
      const ids = after.body.data.map((row) => row.id);
      expect(ids.at(-1)).toBe('test-22');
      expect(ids.filter((id) => id.startsWith('test-'))).toEqual(['test-22']);
      expect(after.body.recordCount).toBe(ids.length);
    });

    it('rows of one time keep one order across pages', async () => {
      const range = { startTime: timeOf(20), endTime: timeOf(20) };
      const first = await search(server, { pageInfo: { index: 1, size: 1 }, ...range }, token);
      const second = await search(server, { pageInfo: { index: 2, size: 1 }, ...range }, token);
      expect(first.body.recordCount).toBe(2);
      expect([first.body.data[0]?.id, second.body.data[0]?.id].sort()).toEqual(['test-20', 'test-21']);
    });

    it('a range with nothing in it answers an empty page', async () => {
      const reply = await search(server, { pageInfo: { index: 1, size: 10 }, startTime: timeOf(0) - day, endTime: timeOf(0) - 1 }, token);
      expect(reply.body.code).toBe(codes.ok);
      expect(reply.body.data).toEqual([]);
      expect(reply.body.recordCount).toBe(0);
    });
  });

  it.each([
    ['page size 0', { pageInfo: { index: 1, size: 0 } }, 'size'],
    ['page size 501', { pageInfo: { index: 1, size: 501 } }, 'size'],
    ['page size not a whole number', { pageInfo: { index: 1, size: 2.5 } }, 'size'],
    ['page index 0', { pageInfo: { index: 0, size: 10 } }, 'index'],
    ['page index as text', { pageInfo: { index: '1', size: 10 } }, 'index'],
    ['no pageInfo', {}, 'pageInfo'],
    ['no page size', { pageInfo: { index: 1 } }, 'size'],
    ['startTime as text', { pageInfo: { index: 1, size: 10 }, startTime: '2026-01-01' }, 'startTime'],
    ['a negative endTime', { pageInfo: { index: 1, size: 10 }, endTime: -1 }, 'endTime'],
    ['endTime before startTime', { pageInfo: { index: 1, size: 10 }, startTime: base + 1, endTime: base }, 'endTime'],
  ])('%s: HTTP 400 naming the field', async (_name, body, field) => {
    const reply = await search(server, body, token);
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe(codes.badRequest);
    expect(reply.body.msg).toContain(field);
    expect(reply.text).not.toMatch(/\bat .+\.ts:\d+/); // no stack trace
  });

  it('a body that is not JSON: HTTP 400', async () => {
    const reply = await call(server, 'POST', apiPaths.backupLogSearch, '{"pageInfo":', { token });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe(codes.badRequest);
  });

  it('without a session: HTTP 401, before the body is looked at', async () => {
    const none = await search(server, { pageInfo: { index: 1, size: 10 } });
    expect(none.status).toBe(401);
    expect(none.body.code).toBe(codes.tokenInvalid);
    const unknown = await search(server, { pageInfo: { index: 1, size: 10 } }, 'not-a-token');
    expect(unknown.status).toBe(401);
    expect(unknown.body.code).toBe(codes.tokenInvalid);
    expect((await search(server, { pageInfo: { index: 0, size: 0 } })).status).toBe(401);
  });

  it('after logout the token no longer reads them', async () => {
    const staff = await signIn(server, 'staff', 'Staff#2026');
    expect((await call(server, 'POST', apiPaths.logout, {}, { token: staff })).body.code).toBe(codes.ok);
    expect((await search(server, { pageInfo: { index: 1, size: 10 } }, staff)).status).toBe(401);
  });

  it('is described in the OpenAPI document', async () => {
    const json = (await (await fetch(`${server.url}/docs/json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    expect(json.paths[apiPaths.backupLogSearch]?.post).toBeDefined();
  });
});

describe.each(databases)('SearchBackupLog elsewhere (%s)', (kind) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startServer(kind);
    token = await signIn(server, 'sysadmin', 'Sysadmin#2026');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('not a private deployment: HTTP 403 noPermission, even for a system administrator', async () => {
    expect(server.config.privateDeployment).toBe(false);
    const reply = await search(server, { pageInfo: { index: 1, size: 10 } }, token);
    expect(reply.status).toBe(403);
    expect(reply.body.code).toBe(codes.noPermission);
    expect(reply.body.data).toBeNull();
  });

  it('not a private deployment: 403 comes before the body is checked, 401 before both', async () => {
    expect((await search(server, { pageInfo: { index: 0, size: 0 } }, token)).status).toBe(403);
    expect((await search(server, { pageInfo: { index: 1, size: 10 } })).status).toBe(401);
  });
});

describe.each(databases)('SearchBackupLog after a production seed (%s)', (kind) => {
  it('holds no demo backups', async () => {
    const server = await startServer(kind, { env: { NODE_ENV: 'production', PRIVATE_DEPLOYMENT: 'on' } });
    try {
      if (server.seed.mode !== 'production') throw new Error(`expected a production seed, got ${server.seed.mode}`);
      const rows = await server.handle.db.selectFrom('backup_logs').select('id').execute();
      expect(rows).toEqual([]);
      // a production start has no licence yet: the log is refused until one is added (route-rules.ts)
      const token = await signIn(server, 'admin', server.seed.admin.password, server.seed.admin.tenantCode);
      const reply = await search(server, { pageInfo: { index: 1, size: 10 } }, token);
      expect(reply.status).toBe(403);
      expect(reply.body.code).toBe(codes.licenceRequired);
    } finally {
      await server.close();
    }
  });
});
