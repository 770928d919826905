import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { sql } from 'kysely';
import { apiPaths, codes } from '@campus/contracts';
import { openDatabase } from '../../src/db/database.ts';
import type { DatabaseHandle } from '../../src/db/database.ts';
import { StatementNames, isOutdatedPlan } from '../../src/db/prepared-statements.ts';
import { isDatabaseUnavailable } from '../../src/db/unavailable.ts';
import { loadConfig } from '../../src/config.ts';
import { call, freshDatabase, signIn, startServer, tempDir } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';

/**
 * PostgreSQL named prepared statements (db/prepared-statements.ts): each query text is prepared once per connection,
 * the switch turns it off, and a statement outdated by a schema change made elsewhere (another node's migration)
 * never breaks a call outside a transaction, nor leaves a connection that keeps failing.
 */

const sharedUrl = process.env.DATABASE_URL ?? '';

describe('statement names', () => {
  it('one name per text, the same each time, none past the limit', () => {
    const names = new StatementNames(2);
    const a = names.nameOf('select 1');
    const b = names.nameOf('select 2');
    expect(a).not.toBe(b);
    expect(names.nameOf('select 1')).toBe(a);
    expect(names.nameOf('select 3')).toBeNull();
    expect(names.nameOf('select 2')).toBe(b);
  });

  it('an outdated plan is told from other failures, and answered as the database unavailable for now', () => {
    const outdated = Object.assign(new Error('cached plan must not change result type'), { code: '0A000' });
    expect(isOutdatedPlan(outdated)).toBe(true);
    expect(isDatabaseUnavailable(outdated)).toBe(true);
    expect(isOutdatedPlan(Object.assign(new Error('syntax error at or near "selec"'), { code: '42601' }))).toBe(false);
    expect(isOutdatedPlan(Object.assign(new Error('cached plan must not change result type'), { code: 'XX000' }))).toBe(false);
  });

  it('DATABASE_PREPARED_STATEMENTS is on by default and takes on/off only', () => {
    expect(loadConfig({}).databasePreparedStatements).toBe(true);
    expect(loadConfig({ DATABASE_PREPARED_STATEMENTS: 'off' }).databasePreparedStatements).toBe(false);
    expect(() => loadConfig({ DATABASE_PREPARED_STATEMENTS: 'sometimes' })).toThrow(/DATABASE_PREPARED_STATEMENTS/);
  });
});

describe.skipIf(!sharedUrl)(`named prepared statements on PostgreSQL${sharedUrl ? '' : ' (skipped: DATABASE_URL is not set)'}`, () => {
  let url: string;
  let drop: () => Promise<void>;
  const handles: DatabaseHandle[] = [];
  const open = (prepared: boolean) => {
    const handle = openDatabase({ databaseUrl: url, sqliteFile: path.join(tempDir(), 'unused.db'), databasePreparedStatements: prepared });
    handles.push(handle);
    return handle;
  };
  /** Another session on the same database: what another server node does. */
  const elsewhere = async (text: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  /** The statements the connection that runs this query prepared (one connection: the queries here run one at a time). */
  const preparedTexts = async (handle: DatabaseHandle) => (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(handle.db)).rows.map((r) => r.statement);

  beforeAll(async () => {
    const fresh = await freshDatabase('postgres', tempDir());
    url = fresh.url ?? '';
    drop = fresh.drop;
    await elsewhere('create table badges (id integer primary key, label text not null)');
    await elsewhere("insert into badges values (1, 'gate'), (2, 'lift')");
  });
  afterAll(async () => {
    for (const handle of handles) await handle.close();
    await drop?.();
  });

  it('a query runs prepared, and again by its name; with the switch off nothing is prepared', async () => {
    const on = open(true);
    const read = (db: DatabaseHandle, id: number) => db.db.selectFrom('badges' as never).select(sql<string>`label`.as('label')).where(sql.ref('id'), '=', id).executeTakeFirst();
    expect(await read(on, 1)).toEqual({ label: 'gate' });
    expect(await read(on, 2)).toEqual({ label: 'lift' });
    const texts = await preparedTexts(on);
    expect(texts.filter((t) => t.includes('"badges"'))).toHaveLength(1);
    const off = open(false);
    expect(await read(off, 2)).toEqual({ label: 'lift' });
    expect(await preparedTexts(off)).toEqual([]);
  });

  it('a column added elsewhere: the next read answers with it, and the connection that held the old plan is closed', async () => {
    const handle = open(true);
    const all = () => sql<Record<string, unknown>>`select * from badges order by id`.execute(handle.db);
    expect((await all()).rows).toEqual([{ id: 1, label: 'gate' }, { id: 2, label: 'lift' }]);
    const before = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(handle.db);
    await elsewhere('alter table badges add column floor integer');
    expect((await all()).rows).toEqual([{ id: 1, label: 'gate', floor: null }, { id: 2, label: 'lift', floor: null }]);
    const after = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(handle.db);
    expect(after.rows[0]?.pid).not.toBe(before.rows[0]?.pid);
    expect((await all()).rows).toHaveLength(2);
  });

  it('inside a transaction: the outdated plan ends it as "unavailable", and the next try succeeds', async () => {
    const handle = open(true);
    const all = (db: typeof handle.db) => sql<Record<string, unknown>>`select * from badges where id = ${1}`.execute(db);
    expect((await handle.db.transaction().execute((trx) => all(trx))).rows).toHaveLength(1);
    await elsewhere('alter table badges add column wing text');
    const failed = await handle.db
      .transaction()
      .execute((trx) => all(trx))
      .then(() => 'committed', (error: unknown) => error);
    expect(isOutdatedPlan(failed)).toBe(true);
    expect(isDatabaseUnavailable(failed)).toBe(true);
    const retried = await handle.db.transaction().execute((trx) => all(trx));
    expect(retried.rows).toEqual([{ id: 1, label: 'gate', floor: null, wing: null }]);
  });
});

describe.skipIf(!sharedUrl)(`the server with prepared statements, a column added under it${sharedUrl ? '' : ' (skipped: DATABASE_URL is not set)'}`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer('postgres');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('signed-in calls go on answering when another node adds a column to the sessions table', async () => {
    const token = await signIn(server, 'sysadmin', 'Sysadmin#2026');
    const menus = () => call<{ menuList: unknown[] }>(server, 'GET', apiPaths.menus, undefined, { token, language: 'en-US' });
    expect((await menus()).body.code).toBe(codes.ok);
    // on a connection of its own, as another node's migration would
    const other = new pg.Client({ connectionString: server.config.databaseUrl ?? '' });
    await other.connect();
    await other.query('alter table sessions add column device_note text');
    await other.end();
    for (let i = 0; i < 12; i++) {
      const reply = await menus();
      expect([reply.status, reply.body.code]).toEqual([200, codes.ok]);
      expect(reply.body.data.menuList.length).toBeGreaterThan(0);
    }
  });
});
