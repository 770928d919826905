import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type { DB } from './schema.ts';
import { openSqlite, withStatementCache } from './sqlite-engine.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<DB>;
  dialect: Dialect;
  close(): Promise<void>;
}

// int8 (bigint) columns hold epoch milliseconds, which fit a JS number: parse them as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

export interface OpenDatabaseOptions {
  databaseUrl: string | null;
  sqliteFile: string;
}

/** Opens PostgreSQL when a postgres:// URL is given, else the embedded SQLite file. */
export function openDatabase(options: OpenDatabaseOptions): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // A connection the database ends (a restart, an administrator, a failover) emits 'error'; unheard, that
    // would end the process. The pool replaces idle connections by itself; queries in flight fail on their own.
    const connectionLost = (error: Error) => process.emitWarning(`PostgreSQL connection lost: ${error.message}`);
    pool.on('error', connectionLost);
    pool.on('connect', (client) => client.on('error', connectionLost));
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  fs.mkdirSync(path.dirname(options.sqliteFile), { recursive: true });
  const sqlite = openSqlite(options.sqliteFile);
  sqlite.exec('PRAGMA journal_mode = WAL');
  sqlite.exec('PRAGMA busy_timeout = 5000');
  // WAL with NORMAL sync: commits stay atomic and the database consistent after a crash; only a power
  // loss can drop the last commits. FULL would fsync on every write (each sign-in writes several rows).
  sqlite.exec('PRAGMA synchronous = NORMAL');
  sqlite.exec('PRAGMA foreign_keys = ON');
  // SQLite's own lower() folds ASCII letters only; PostgreSQL's folds every letter. This one folds like
  // PostgreSQL, so case-insensitive searches (lower(x) like lower(?)) answer the same on both.
  sqlite.defineFunction('lower', (value: unknown) => (value === null ? null : String(value).toLowerCase()));
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/** `select 1`: true when the database answers. */
export async function pingDatabase(db: Kysely<DB>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
