import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type { SqliteDatabase } from 'kysely';
import type { DB } from './schema.ts';

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
  const sqlite = new Database(options.sqliteFile);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  // WAL with NORMAL sync: commits stay atomic and the database consistent after a crash; only a power
  // loss can drop the last commits. FULL would fsync on every write (each sign-in writes several rows).
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // SQLite's own lower() folds ASCII letters only; PostgreSQL's folds every letter. This one folds like
  // PostgreSQL, so case-insensitive searches (lower(x) like lower(?)) answer the same on both.
  sqlite.function('lower', { deterministic: true }, (value: unknown) => (value === null ? null : String(value).toLowerCase()));
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/**
 * Kysely prepares every query anew; on SQLite that preparation costs more than running the query.
 * Queries are built from a fixed set of shapes (values travel as parameters), so a bounded cache
 * keyed by the SQL text keeps each shape prepared once. Kysely runs one query at a time per
 * connection, so a cached statement is never used twice at once.
 */
function withStatementCache(sqlite: Database.Database, limit = 500): SqliteDatabase {
  const statements = new Map<string, Database.Statement>();
  return {
    close: () => {
      statements.clear();
      sqlite.close();
    },
    prepare: (text: string) => {
      let statement = statements.get(text);
      if (!statement) {
        if (statements.size >= limit) statements.clear();
        statement = sqlite.prepare(text);
        statements.set(text, statement);
      }
      return statement;
    },
  };
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
