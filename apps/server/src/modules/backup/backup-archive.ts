import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { shellVersion } from '@campus/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Dialect } from '../../db/database.ts';
import { appliedSchema } from '../../db/migrations.ts';
import { isStorageFull } from '../../db/unavailable.ts';
import { openSqlite } from '../../db/sqlite-engine.ts';
import { sha256Hex } from '../../lib/hash.ts';
import { makePrivateDir } from '../../lib/private-files.ts';
import { processAlive } from '../../lib/process-alive.ts';
import type { BackupLogService } from '../backup-log/backup-log-service.ts';

/** What a backup copies, and where it writes. */
export interface BackupSettings {
  dataDir: string;
  databaseUrl: string | null;
  sqliteFile: string;
  subAppsDir: string;
  systemKeyKekFile: string;
  backupDir: string;
  backupRetentionDays: number;
}

export interface BackupDeps {
  settings: BackupSettings;
  db: Kysely<DB>;
  dialect: Dialect;
  backupLogs: BackupLogService;
  now: () => number;
}

export interface BackupRequest {
  /** Taken by the timer (campus-backup.timer) rather than by a person. */
  scheduled?: boolean;
  remarks?: string;
}

export interface BackupOutcome {
  name: string;
  archive: string;
  size: number;
  backupTime: number;
  /** The KEK's copy, kept beside the archive as a file of its own; null when the installation has none. */
  kekCopy: string | null;
  /** Backups removed because their retention ran out. */
  pruned: string[];
}

/** Archives this command makes (and the only files it ever removes): campus-YYYYMMDD-HHMMSS[-n].tar.gz. */
export const archivePattern = /^campus-\d{8}-\d{6}(-\d+)?\.tar\.gz$/;
export const manifestName = 'manifest.json';

export interface BackupManifest {
  product: 'campus-shell';
  version: string;
  /** The newest migration the database had applied. */
  schema: string;
  database: Dialect;
  createdAt: number;
  host: string;
  /** SHA-256 of every other member, by its path in the archive. */
  files: Record<string, string>;
}

export class BackupError extends Error {
  override name = 'BackupError';
}

function stampOf(time: number): string {
  const iso = new Date(time).toISOString(); // 2026-11-26T18:40:05.123Z
  return `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}`;
}

/**
 * Puts the finished archive `partial` into `folder` under the first free name for `time` (two backups in one second
 * get -2, -3 …). A hard link fails when the name exists, so a backup running beside this one is never overwritten
 * (where the folder has no hard links, a check before the rename does nearly as well).
 */
function publish(partial: string, folder: string, time: number): string {
  const stamp = stampOf(time);
  for (let n = 1; ; n += 1) {
    const name = n === 1 ? `campus-${stamp}.tar.gz` : `campus-${stamp}-${n}.tar.gz`;
    const target = path.join(folder, name);
    try {
      fs.linkSync(partial, target);
      return name;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue;
      // a share without hard links (vfat, some SMB mounts): a check and a rename instead
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
      if (fs.existsSync(target)) continue;
      fs.renameSync(partial, target);
      return name;
    }
  }
}

/** The work folder of a backup in progress: its host and process in the name, so that a later one can tell it died. */
const workPrefix = () => `.partial-${os.hostname()}-${process.pid}-`;
const workPattern = /^\.partial-(.+)-(\d+)-[^-]+$/;

/**
 * Removes what backups killed on the way (kill -9, a power cut) left in `folder`: their work folders hold a whole
 * copy of the database. Only this host's, and only of processes that are gone: a backup running now keeps its own.
 */
export function removeLeftovers(folder: string): string[] {
  const removed: string[] = [];
  for (const entry of fs.readdirSync(folder)) {
    const match = workPattern.exec(entry);
    if (!match || match[1] !== os.hostname() || processAlive(Number(match[2]))) continue;
    fs.rmSync(path.join(folder, entry), { recursive: true, force: true });
    removed.push(entry);
  }
  return removed;
}

/** The KEK copy that belongs to an archive. */
export function kekCopyName(archiveName: string): string {
  return archiveName.replace(/\.tar\.gz$/, '.kek');
}

/** Runs a program to its end; a non-zero exit is an error that quotes the program's last words. */
export function runProgram(program: string, args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2_000);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      reject(new BackupError(error.code === 'ENOENT' ? `${program} is not installed (not found on PATH)` : `${program} could not run: ${error.message}`));
    });
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new BackupError(`${program} failed (${signal ?? `exit ${code}`}): ${stderr.trim() || 'no message'}`));
    });
  });
}

/**
 * Runs pg_dump or pg_restore on the database of `databaseUrl`. The password travels in PGPASSWORD, never on a
 * command line that any user of the machine can read in the process list; a missing program names its package.
 */
export async function runPostgresTool(program: 'pg_dump' | 'pg_restore', args: string[], databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  const env = { ...process.env, ...(password ? { PGPASSWORD: password } : {}) };
  try {
    await runProgram(program, [...args, `--dbname=${url.toString()}`], { env });
  } catch (error) {
    if (error instanceof BackupError && /not installed/.test(error.message)) {
      throw new BackupError(`${program} is not installed: install the PostgreSQL client of the server's major version (Debian: apt-get install postgresql-client)`);
    }
    throw error;
  }
}

async function copyDatabase(settings: BackupSettings, dialect: Dialect, destinationFolder: string): Promise<string> {
  if (dialect === 'sqlite') {
    const file = path.join(destinationFolder, 'database.sqlite');
    const engine = openSqlite(settings.sqliteFile);
    try {
      engine.exec('PRAGMA busy_timeout = 5000');
      await engine.backup(file);
    } finally {
      engine.close();
    }
    // the copy is checked before it counts as a backup
    const copy = openSqlite(file);
    try {
      const rows = copy.prepare('PRAGMA quick_check').all([]) as { quick_check: string }[];
      if (rows[0]?.quick_check !== 'ok') throw new BackupError(`the copy of ${settings.sqliteFile} failed SQLite's check: ${JSON.stringify(rows)}`);
    } finally {
      copy.close();
    }
    return file;
  }
  if (settings.databaseUrl === null) throw new BackupError('DATABASE_URL is not set');
  const file = path.join(destinationFolder, 'database.pgdump');
  await runPostgresTool('pg_dump', ['--format=custom', '--no-owner', `--file=${file}`], settings.databaseUrl);
  return file;
}

function copyFolderIfAny(from: string, to: string): void {
  if (fs.existsSync(from)) fs.cpSync(from, to, { recursive: true, dereference: false, errorOnExist: true });
}

export function sha256Of(file: string): string {
  return sha256Hex(fs.readFileSync(file));
}

/** Every regular file under `root`, as paths relative to it with forward slashes, sorted. */
export function filesUnder(root: string): string[] {
  const found: string[] = [];
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) found.push(path.relative(root, full).split(path.sep).join('/'));
    }
  };
  walk(root);
  return found.sort();
}

function describeFailure(error: unknown, folder: string): BackupError {
  const code = (error as NodeJS.ErrnoException).code;
  // ENOSPC of a file, or the database's own word for it (SQLite's backup API writes the copy: SQLITE_FULL)
  if (isStorageFull(error)) return new BackupError(`storage full: no space left in ${folder}`);
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return new BackupError(`${folder} is not writable (${code})`);
  if (error instanceof BackupError) return error;
  return new BackupError(error instanceof Error ? error.message : String(error));
}

/**
 * One backup of the installation: a consistent online copy of the database (SQLite's own backup API, or pg_dump),
 * the tools and the sub-app builds, with a manifest of checksums, in one archive of BACKUP_DIR; the KEK apart, as a
 * file of its own beside it (whoever holds both can open the system key). The archive is written under a temporary
 * name and renamed at the end, so a failed backup leaves no file and no row. Then its Backup Log row, then the
 * backups past their retention are removed with their rows.
 */
export async function takeBackup(deps: BackupDeps, request: BackupRequest = {}): Promise<BackupOutcome> {
  const { settings } = deps;
  const folder = settings.backupDir;
  const backupTime = deps.now();
  let work: string | null = null;
  let archive: string | null = null;
  let kekCopy: string | null = null;
  let name: string;
  try {
    makePrivateDir(folder);
    removeLeftovers(folder);
    work = fs.mkdtempSync(path.join(folder, workPrefix()));
    fs.chmodSync(work, 0o700);
    const content = path.join(work, 'content');
    fs.mkdirSync(content, { mode: 0o700 });
    await copyDatabase(settings, deps.dialect, content);
    copyFolderIfAny(path.join(settings.dataDir, 'tools'), path.join(content, 'tools'));
    copyFolderIfAny(settings.subAppsDir, path.join(content, 'subapps'));
    const files = Object.fromEntries(filesUnder(content).map((member) => [member, sha256Of(path.join(content, member))]));
    const manifest: BackupManifest = {
      product: 'campus-shell',
      version: shellVersion,
      schema: await appliedSchema(deps.db),
      database: deps.dialect,
      createdAt: backupTime,
      host: os.hostname(),
      files,
    };
    fs.writeFileSync(path.join(content, manifestName), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    const partial = path.join(work, 'campus.tar.gz');
    await runProgram('tar', ['-czf', partial, '-C', content, '.']);
    fs.chmodSync(partial, 0o600);
    // the KEK copy is ready in the work folder before the archive shows, and shows right after it
    const kekPartial = path.join(work, 'campus.kek');
    const withKek = fs.existsSync(settings.systemKeyKekFile);
    if (withKek) {
      fs.copyFileSync(settings.systemKeyKekFile, kekPartial);
      fs.chmodSync(kekPartial, 0o600);
    }
    name = publish(partial, folder, backupTime);
    archive = path.join(folder, name);
    if (withKek) {
      kekCopy = path.join(folder, kekCopyName(name));
      fs.renameSync(kekPartial, kekCopy);
    }
  } catch (error) {
    if (archive) fs.rmSync(archive, { force: true });
    throw describeFailure(error, folder);
  } finally {
    if (work) fs.rmSync(work, { recursive: true, force: true });
  }

  const size = fs.statSync(archive).size;
  const kind = request.scheduled ? 'Scheduled backup' : 'Backup by hand';
  const remarks = [request.remarks?.trim() ? `${kind}: ${request.remarks.trim()}` : kind, kekCopy ? `system key KEK kept apart in ${path.basename(kekCopy)}` : '']
    .filter(Boolean)
    .join('; ');
  try {
    await deps.backupLogs.add({
      name,
      backupTime,
      filePath: folder,
      addr: os.hostname(),
      retentionDay: settings.backupRetentionDays,
      size,
      remarks: remarks.slice(0, 500),
      logTime: deps.now(),
    });
  } catch (error) {
    // a backup nobody can see in Backup Logs is not kept: no file without its row
    fs.rmSync(archive, { force: true });
    if (kekCopy) fs.rmSync(kekCopy, { force: true });
    throw describeFailure(error, deps.dialect === 'sqlite' ? settings.dataDir : 'the PostgreSQL database');
  }
  const pruned = await pruneExpired(deps);
  return { name, archive, size, backupTime, kekCopy, pruned };
}

/** Removes the backups of BACKUP_DIR past their retention, each file with its KEK copy and its row. */
export async function pruneExpired(deps: BackupDeps): Promise<string[]> {
  const folder = deps.settings.backupDir;
  const removed: string[] = [];
  for (const row of await deps.backupLogs.expired(folder, deps.now())) {
    // only what this command made: a row whose name is not one of its archives keeps its file
    if (archivePattern.test(row.name)) {
      fs.rmSync(path.join(folder, row.name), { force: true });
      fs.rmSync(path.join(folder, kekCopyName(row.name)), { force: true });
    }
    await deps.backupLogs.remove(row.id);
    removed.push(row.name);
  }
  return removed;
}
