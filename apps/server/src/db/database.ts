import path from 'node:path';
import type pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type { DB } from './schema.ts';
import { openSqlite, withStatementCache } from './sqlite-engine.ts';
import { makePrivateDir, makePrivateFile } from '../lib/private-files.ts';
import { isOutdatedPlan, StatementNames } from './prepared-statements.ts';
import { isDatabaseUnavailable } from './unavailable.ts';

export type Dialect = 'sqlite' | 'postgres';

/**
 * The database an installation's settings name, before it is opened: PostgreSQL with a DATABASE_URL, else the
 * embedded SQLite file (the test openDatabase makes; an open handle says it as `dialect`).
 */
export function dialectOf(settings: { databaseUrl: string | null }): Dialect {
  return settings.databaseUrl ? 'postgres' : 'sqlite';
}

export interface DatabaseHandle {
  db: Kysely<DB>;
  dialect: Dialect;
  close(): Promise<void>;
  /**
   * Where a connection the database ended outside a query is reported (a restart, an administrator, a failover):
   * main.ts points it at the server's log. Until then, a process warning.
   */
  onConnectionLost: (error: Error) => void;
  /** PostgreSQL: the pool's connections (total, idle) and the clients waiting for one; SQLite: null (one connection). */
  poolStats: () => { total: number; idle: number; waiting: number } | null;
}

/**
 * The PostgreSQL driver, loaded when the first PostgreSQL database is opened: a server on its SQLite file never
 * loads it (docs/architecture.md, Memory).
 */
async function loadPostgresDriver(): Promise<typeof pg> {
  const { default: driver } = await import('pg');
  // int8 (bigint) columns hold epoch milliseconds, which fit a JS number: parse them as numbers.
  driver.types.setTypeParser(driver.types.builtins.INT8, (value: string) => Number(value));
  return driver;
}

export interface OpenDatabaseOptions {
  databaseUrl: string | null;
  sqliteFile: string;
  /** PostgreSQL: the longest wait for a connection, a new one or a free one of the pool (0: none). */
  databaseConnectTimeoutMs?: number;
  /** PostgreSQL: the longest a statement may run before the database cancels it (0: none; migrations run without). */
  databaseStatementTimeoutMs?: number;
  /** PostgreSQL: named prepared statements (prepared-statements.ts); on unless false. */
  databasePreparedStatements?: boolean;
}

/** How much longer than the statement timeout the client waits for an answer before it gives the connection up. */
const clientTimeoutMarginMs = 2_000;

/**
 * The pool as Kysely sees it, with two differences.
 * - Once a query failed because the connection itself failed (terminated, timed out, reset), the connection is
 *   broken: what else is sent on it (a transaction's rollback) fails at once instead of queueing behind a query that
 *   may never answer, and it goes back to the pool as broken, so the pool closes it instead of handing it to the next
 *   request.
 * - With `names`, statements run as named prepared statements (prepared-statements.ts). One whose plan another node's
 *   migration outdated runs again unnamed, and the connection is closed at its release, so no statement it prepared
 *   is used again; inside a transaction that retry cannot run (the failure ended the transaction): the outdated plan
 *   is then answered 503 like a lost connection (db/unavailable.ts), and the caller's next try gets a fresh connection.
 */
function discardingBrokenConnections(pool: pg.Pool, names: StatementNames | null): PostgresPool {
  return {
    connect: async () => {
      const client = await pool.connect();
      let broken: Error | undefined;
      let outdated: Error | undefined;
      const query = async (text: string, parameters: readonly unknown[]) => {
        if (broken) throw broken;
        const name = outdated ? null : names?.nameOf(text);
        try {
          return await (name ? client.query({ name, text, values: [...parameters] }) : client.query(text, [...parameters]));
        } catch (error) {
          if (name && isOutdatedPlan(error) && error instanceof Error) {
            outdated = error;
            return await client.query(text, [...parameters]).catch(() => {
              throw error;
            });
          }
          if (isDatabaseUnavailable(error) && error instanceof Error) broken ??= error;
          throw error;
        }
      };
      return { query, release: () => client.release(broken ?? outdated) } as unknown as PostgresPoolClient;
    },
    end: () => pool.end(),
  };
}

/** Opens PostgreSQL when a postgres:// URL is given, else the embedded SQLite file. */
export function openDatabase(options: OpenDatabaseOptions): DatabaseHandle {
  if (options.databaseUrl) {
    const databaseUrl = options.databaseUrl;
    const connectMs = options.databaseConnectTimeoutMs ?? 0;
    const statementMs = options.databaseStatementTimeoutMs ?? 0;
    // made at the first query (Kysely asks for it then): the migrations of a start make it, so a database that
    // cannot be reached is still met at start
    let pool: pg.Pool | null = null;
    const makePool = async (): Promise<PostgresPool> => {
      const driver = await loadPostgresDriver();
      pool = new driver.Pool({
        connectionString: databaseUrl,
        max: 10,
        // never wait for ever: for a connection (the database down or a pool exhausted by slow statements), for a
        // statement (a lock held elsewhere), for an answer (a connection that silently died)
        connectionTimeoutMillis: connectMs,
        ...(statementMs > 0 ? { statement_timeout: statementMs, query_timeout: statementMs + clientTimeoutMarginMs } : {}),
        keepAlive: true,
      });
      // A connection the database ends outside a query (a restart, an administrator, a failover) emits 'error' on
      // its client, and on the pool when it was idle there; unheard, either would end the process. The client's is
      // reported (once); the pool drops the connection and opens new ones on demand; queries in flight fail alone.
      pool.on('error', () => undefined);
      pool.on('connect', (client) => client.on('error', (error: Error) => handle.onConnectionLost(error)));
      return discardingBrokenConnections(pool, options.databasePreparedStatements === false ? null : new StatementNames());
    };
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: makePool }) });
    const handle: DatabaseHandle = {
      db,
      dialect: 'postgres',
      close: () => db.destroy(),
      onConnectionLost: (error) => process.emitWarning(`PostgreSQL connection lost: ${error.message}`),
      poolStats: () => (pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : { total: 0, idle: 0, waiting: 0 }),
    };
    return handle;
  }
  makePrivateDir(path.dirname(options.sqliteFile));
  makePrivateFile(options.sqliteFile);
  const sqlite = openSqlite(options.sqliteFile);
  // the busy timeout first: another server process on the file may hold its lock while this one opens it, and
  // switching to WAL (a no-op once the file is WAL) needs the lock too
  sqlite.exec('PRAGMA busy_timeout = 5000');
  sqlite.exec('PRAGMA journal_mode = WAL');
  // WAL with NORMAL sync: commits stay atomic and the database consistent after a crash; only a power
  // loss can drop the last commits. FULL would fsync on every write (each sign-in writes several rows).
  sqlite.exec('PRAGMA synchronous = NORMAL');
  sqlite.exec('PRAGMA foreign_keys = ON');
  // SQLite's own lower() folds ASCII letters only; PostgreSQL's folds every letter. This one folds like
  // PostgreSQL, so case-insensitive searches (lower(x) like lower(?)) answer the same on both.
  sqlite.defineFunction('lower', (value: unknown) => (value === null ? null : String(value).toLowerCase()));
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db, dialect: 'sqlite', close: () => db.destroy(), onConnectionLost: () => undefined, poolStats: () => null };
}

/** `select 1`: true when the database answers within `timeoutMs`. */
export async function pingDatabase(db: Kysely<DB>, timeoutMs = 3_000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const answered = sql`select 1`.execute(db).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}
