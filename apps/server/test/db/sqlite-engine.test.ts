import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/database.ts';
import { hasNodeSqlite, openSqlite, withStatementCache } from '../../src/db/sqlite-engine.ts';
import { tempDir } from '../support/helpers.ts';

describe('the embedded SQLite engine', () => {
  it("is Node's own node:sqlite from Node 22.16 on, better-sqlite3 before", () => {
    expect(hasNodeSqlite('20.19.0')).toBe(false);
    expect(hasNodeSqlite('22.15.1')).toBe(false);
    expect(hasNodeSqlite('22.16.0')).toBe(true);
    expect(hasNodeSqlite('24.21.0')).toBe(true);
    expect(hasNodeSqlite('26.0.0')).toBe(true);
  });

  // npm test runs this on Node 20 (better-sqlite3) and, in CI, again on Node 24 (node:sqlite)
  it(`reads, writes, folds case like PostgreSQL and tells readers from writers (here: ${process.versions.node})`, () => {
    const engine = openSqlite(path.join(tempDir(), 'engine.db'));
    expect(engine.name).toBe(hasNodeSqlite() ? 'node:sqlite' : 'better-sqlite3');
    engine.defineFunction('lower', (value) => (value === null ? null : String(value).toLowerCase()));
    const db = withStatementCache(engine);
    const create = db.prepare('create table t (id integer primary key, name text, at bigint)');
    expect(create.reader).toBe(false);
    create.run([]);
    const insert = db.prepare('insert into t (name, at) values (?, ?)');
    expect(insert.run(['ÄRGER', 1_764_000_000_000])).toMatchObject({ changes: 1 });
    expect(db.prepare('insert into t (name, at) values (?, ?)')).toBe(insert); // prepared once
    const select = db.prepare('select name, at from t where lower(name) = lower(?)');
    expect(select.reader).toBe(true);
    expect(select.all(['ärger'])).toEqual([{ name: 'ÄRGER', at: 1_764_000_000_000 }]);
    expect([...select.iterate(['ÄRGER'])]).toHaveLength(1);
    db.close();
  });

  it('a transaction takes the write lock when it begins, so a second process on the file waits its turn', () => {
    const file = path.join(tempDir(), 'shared.db');
    const [first, second] = [openSqlite(file), openSqlite(file)];
    for (const engine of [first, second]) engine.exec('PRAGMA journal_mode = WAL');
    first.exec('create table t (id integer primary key, n integer)');
    first.exec('insert into t (n) values (1)');
    second.exec('PRAGMA busy_timeout = 0'); // here: fail at once rather than wait, to see the lock
    const db = withStatementCache(first);
    // Kysely's `begin`: a deferred one would let the other process write between this read and this write, and
    // the write would then fail with SQLITE_BUSY whatever the busy timeout
    db.prepare('begin').run([]);
    expect(db.prepare('select n from t').all([])).toEqual([{ n: 1 }]);
    expect(() => second.exec('update t set n = 2')).toThrow(/locked|busy/i);
    db.prepare('update t set n = n + 10').run([]);
    db.prepare('commit').run([]);
    second.exec('update t set n = n * 2');
    expect(db.prepare('select n from t').all([])).toEqual([{ n: 22 }]);
    db.close();
    second.close();
  });
});

describe('the embedded database on disk', () => {
  const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

  it('makes the data folder and campus.db (and its WAL files) for the service user only', async () => {
    const dataDir = path.join(tempDir(), 'data');
    const sqliteFile = path.join(dataDir, 'campus.db');
    const handle = openDatabase({ databaseUrl: null, sqliteFile });
    await sql`create table t (id integer primary key)`.execute(handle.db);
    await sql`insert into t (id) values (1)`.execute(handle.db);
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(sqliteFile)).toBe(0o600);
    expect(modeOf(`${sqliteFile}-wal`)).toBe(0o600);
    await handle.close();
  });

  it('takes group and other rights from a campus.db an older release left readable to all', async () => {
    const sqliteFile = path.join(tempDir(), 'campus.db');
    fs.writeFileSync(sqliteFile, '', { mode: 0o644 });
    fs.chmodSync(sqliteFile, 0o644);
    const handle = openDatabase({ databaseUrl: null, sqliteFile });
    await sql`select 1`.execute(handle.db);
    expect(modeOf(sqliteFile)).toBe(0o600);
    await handle.close();
  });

  it('a second handle on the file (the migrations\' own) leaves the first one\'s locks: other processes cannot pull its WAL away', async () => {
    const sqliteFile = path.join(tempDir(), 'campus.db');
    const handle = openDatabase({ databaseUrl: null, sqliteFile });
    await sql`create table a (x integer)`.execute(handle.db);
    await openDatabase({ databaseUrl: null, sqliteFile }).close();
    // another process (campus backup, a second node, an operator's sqlite3) reads and goes: the file is still in use
    const sqlite3 = (statement: string) => spawnSync('sqlite3', [sqliteFile, statement], { encoding: 'utf8' });
    expect(sqlite3('select count(*) from a').stdout.trim()).toBe('0');
    expect(fs.existsSync(`${sqliteFile}-wal`)).toBe(true);
    // and what it writes next, this process reads
    expect(sqlite3('create table b (y integer); insert into b values (2)').status).toBe(0);
    expect((await sql<{ y: number }>`select y from b`.execute(handle.db)).rows).toEqual([{ y: 2 }]);
    await handle.close();
  });
});
