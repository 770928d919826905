import fs from 'node:fs';
import { sql } from 'kysely';
import type { DatabaseHandle } from './database.ts';
import { processAlive } from '../lib/process-alive.ts';

/** Any fixed number: the advisory lock every server process of one PostgreSQL database takes to start. */
const postgresStartLockKey = 6_300_017;
const pollMs = 100;
const staleEmptyMs = 10_000;

export interface StartLockOptions {
  /** The SQLite file (its lock file lies beside it); unused on PostgreSQL. */
  sqliteFile: string;
  /** How long to wait for another process's start before giving up. */
  timeoutMs?: number;
}

/**
 * Takes `<file>.start-lock` (created exclusively, holding this process's id); a lock whose process is gone
 * is taken over. Every process on one SQLite file runs on the same machine, so the process id tells.
 */
async function withLockFile<T>(file: string, timeoutMs: number, work: () => Promise<T>): Promise<T> {
  const lockFile = `${file}.start-lock`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let holder: number;
    let age: number;
    try {
      holder = Number(fs.readFileSync(lockFile, 'utf8').trim());
      age = Date.now() - fs.statSync(lockFile).mtimeMs;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // released meanwhile: try again
      throw error;
    }
    const named = Number.isInteger(holder) && holder > 0;
    // left by a process that died (an empty file is one being written, unless it has stayed empty)
    if ((named && !processAlive(holder)) || (!named && age > staleEmptyMs)) {
      fs.rmSync(lockFile, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`another server process is starting on ${file} (${lockFile}, process ${holder}) and did not finish within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  try {
    return await work();
  } finally {
    fs.rmSync(lockFile, { force: true });
  }
}

/**
 * Runs `work` (migrating and seeding) in one server process at a time per database: server processes started
 * together on a new database would otherwise both find it empty and both seed it, and all but one stop on a
 * duplicate key. PostgreSQL: a session advisory lock on a connection of its own (released by the database if
 * the process dies). SQLite: a lock file beside the database.
 */
export async function withStartLock<T>(handle: DatabaseHandle, options: StartLockOptions, work: () => Promise<T>): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  if (handle.dialect === 'sqlite') return withLockFile(options.sqliteFile, timeoutMs, work);
  return handle.db.connection().execute(async (connection) => {
    await sql`select set_config('lock_timeout', ${`${timeoutMs}ms`}, false)`.execute(connection);
    await sql`select pg_advisory_lock(${postgresStartLockKey})`.execute(connection);
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(${postgresStartLockKey})`.execute(connection);
      await sql`reset lock_timeout`.execute(connection);
    }
  });
}
