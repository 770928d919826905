import { createRequire } from 'node:module';
import type { Database as BetterDatabase } from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * The embedded SQLite engine. On Node 22.16 and later, Node's own `node:sqlite`; before that (Node 20),
 * better-sqlite3. better-sqlite3 12 (the last line that runs on Node 20) aborts the process on Node 24
 * when a statement is collected after its environment is gone (Node 24's ObjectWrap, fixed only in
 * better-sqlite3 13, which needs Node 22): so it is loaded only where it is needed, never on Node 24.
 */

const require = createRequire(import.meta.url);

/** What the server asks of an engine besides Kysely's SqliteDatabase. */
export interface SqliteEngine {
  name: 'node:sqlite' | 'better-sqlite3';
  /** Runs statements without results (PRAGMAs). */
  exec(sql: string): void;
  /** Registers a deterministic scalar function. */
  defineFunction(name: string, fn: (value: unknown) => unknown): void;
  /** Prepares a statement in Kysely's form. */
  prepare(sql: string): SqliteStatement;
  /** A consistent copy of the whole database into `destination`, through SQLite's online backup API. */
  backup(destination: string): Promise<void>;
  close(): void;
}

/** Pages a backup step copies: all of them in one step, so writers on other connections never restart it. */
const wholeDatabase = 2 ** 31 - 1;

// the parts of node:sqlite used here (@types/node for Node 20 does not describe it)
interface NodeStatementSync {
  all(...parameters: unknown[]): unknown[];
  run(...parameters: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  iterate(...parameters: unknown[]): IterableIterator<unknown>;
  columns(): unknown[];
}
interface NodeDatabaseSync {
  exec(sql: string): void;
  prepare(sql: string): NodeStatementSync;
  function(name: string, options: { deterministic: boolean }, fn: (value: unknown) => unknown): void;
  close(): void;
}

/** Whether this Node has node:sqlite with everything used here (unflagged, with StatementSync.columns). */
export function hasNodeSqlite(version: string = process.versions.node): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 16);
}

function nodeSqlite(file: string): SqliteEngine {
  const { DatabaseSync, backup } = require('node:sqlite') as {
    DatabaseSync: new (file: string) => NodeDatabaseSync;
    backup: (source: NodeDatabaseSync, destination: string, options: { rate: number }) => Promise<number>;
  };
  const db = new DatabaseSync(file);
  return {
    name: 'node:sqlite',
    exec: (text) => db.exec(text),
    defineFunction: (name, fn) => db.function(name, { deterministic: true }, fn),
    prepare: (text) => {
      const statement = db.prepare(text);
      // Kysely reads rows from statements that return columns, and changes from the others
      const reader = statement.columns().length > 0;
      return {
        reader,
        all: (parameters) => statement.all(...parameters),
        run: (parameters) => statement.run(...parameters),
        iterate: (parameters) => statement.iterate(...parameters),
      };
    },
    backup: async (destination) => {
      await backup(db, destination, { rate: wholeDatabase });
    },
    close: () => db.close(),
  };
}

function betterSqlite3(file: string): SqliteEngine {
  const Database = require('better-sqlite3') as new (file: string) => BetterDatabase;
  const db = new Database(file);
  return {
    name: 'better-sqlite3',
    exec: (text) => db.exec(text),
    defineFunction: (name, fn) => db.function(name, { deterministic: true }, fn),
    prepare: (text) => db.prepare(text),
    backup: async (destination) => {
      await db.backup(destination, { progress: () => wholeDatabase });
    },
    close: () => db.close(),
  };
}

/** Opens the SQLite file with the engine this Node runs best. */
export function openSqlite(file: string): SqliteEngine {
  return hasNodeSqlite() ? nodeSqlite(file) : betterSqlite3(file);
}

/**
 * Kysely's transactions start with a deferred `begin`: with another process on the same file (several server
 * processes on one machine), a transaction that read first and writes second fails at once with SQLITE_BUSY
 * when the other wrote meanwhile, whatever the busy timeout. `begin immediate` takes the write lock at the
 * start, waiting for it within the busy timeout, so such a transaction waits its turn instead of failing.
 *
 * Kysely prepares every query anew; on SQLite that preparation costs more than running the query.
 * Queries are built from a fixed set of shapes (values travel as parameters), so a bounded cache
 * keyed by the SQL text keeps each shape prepared once. Kysely runs one query at a time per
 * connection, so a cached statement is never used twice at once.
 */
export function withStatementCache(engine: SqliteEngine, limit = 500): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => {
      statements.clear();
      engine.close();
    },
    prepare: (text: string) => {
      let statement = statements.get(text);
      if (!statement) {
        if (statements.size >= limit) statements.clear();
        statement = engine.prepare(text === 'begin' ? 'begin immediate' : text);
        statements.set(text, statement);
      }
      return statement;
    },
  };
}
