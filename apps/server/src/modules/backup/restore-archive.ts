import fs from 'node:fs';
import path from 'node:path';
import type { Dialect } from '../../db/database.ts';
import { openSqlite } from '../../db/sqlite-engine.ts';
import { makePrivateDir } from '../../lib/private-files.ts';
import type { BackupManifest, BackupSettings } from './backup-archive.ts';
import { BackupError, filesUnder, manifestName, runPostgresTool, runProgram, sha256Of } from './backup-archive.ts';
import { archiveEntries, strayEntries } from './archive-entries.ts';

export class RestoreError extends Error {
  override name = 'RestoreError';
}

export interface CheckedArchive {
  /** The unpacked archive (a private folder beside the data; the caller removes it). */
  folder: string;
  manifest: BackupManifest;
}

function asRestoreError(error: unknown): RestoreError {
  if (error instanceof RestoreError) return error;
  return new RestoreError(error instanceof Error ? error.message : String(error));
}

/**
 * Unpacks an archive `campus backup` made and checks it whole before anything is changed: its manifest names this
 * product, the database kind of this installation and a schema this release knows, and every member is there with its
 * checksum and nothing else is.
 */
export async function unpackAndCheck(archive: string, settings: BackupSettings, dialect: Dialect, knownMigrations: string[]): Promise<CheckedArchive> {
  if (!fs.existsSync(archive) || !fs.statSync(archive).isFile()) throw new RestoreError(`${archive} is not a file`);
  makePrivateDir(settings.dataDir);
  const folder = fs.mkdtempSync(path.join(settings.dataDir, '.restore-'));
  fs.chmodSync(folder, 0o700);
  try {
    const unpackable = (error: unknown) => new RestoreError(`${archive} cannot be unpacked: ${error instanceof BackupError ? error.message : String(error)}`);
    // a link or a device in the archive would be followed by what comes next (a chmod, a swap, a later member):
    // refused before a byte is unpacked, and looked for again on disk after
    let entries: Awaited<ReturnType<typeof archiveEntries>>;
    try {
      entries = await archiveEntries(archive);
    } catch (error) {
      throw unpackable(error);
    }
    const notPlain = entries.find((entry) => entry.kind !== 'file' && entry.kind !== 'folder');
    if (notPlain) throw new RestoreError(`${archive} holds ${notPlain.kind} ${notPlain.name}: a campus backup holds only files and folders; nothing was restored`);
    const outside = entries.find((entry) => entry.name.startsWith('/') || entry.name.split('/').includes('..'));
    if (outside) throw new RestoreError(`${archive} holds ${outside.name}, outside the archive's own folder; nothing was restored`);
    try {
      await runProgram('tar', ['--no-same-owner', '--no-same-permissions', '-xzf', archive, '-C', folder]);
    } catch (error) {
      throw unpackable(error);
    }
    const stray = strayEntries(folder);
    if (stray.length > 0) throw new RestoreError(`${archive} holds ${stray[0]}: a campus backup holds only files and folders; nothing was restored`);
    let manifest: BackupManifest;
    try {
      manifest = JSON.parse(fs.readFileSync(path.join(folder, manifestName), 'utf8')) as BackupManifest;
    } catch {
      throw new RestoreError(`${archive} is not a campus backup (no readable ${manifestName})`);
    }
    if (manifest.product !== 'campus-shell' || typeof manifest.files !== 'object' || manifest.files === null) throw new RestoreError(`${archive} is not a campus backup`);
    const members = filesUnder(folder).filter((member) => member !== manifestName);
    const listed = Object.keys(manifest.files).sort();
    const extra = members.filter((member) => !Object.hasOwn(manifest.files, member));
    const missing = listed.filter((member) => !members.includes(member));
    const changed = listed.filter((member) => members.includes(member) && sha256Of(path.join(folder, member)) !== manifest.files[member]);
    if (extra.length + missing.length + changed.length > 0) {
      const said = [...changed.map((m) => `${m} changed`), ...missing.map((m) => `${m} missing`), ...extra.map((m) => `${m} not in the manifest`)];
      throw new RestoreError(`${archive} does not match its manifest (${said.slice(0, 5).join(', ')}): it was damaged or altered; nothing was restored`);
    }
    if (manifest.database !== dialect) {
      throw new RestoreError(`${archive} holds a ${manifest.database === 'sqlite' ? 'SQLite' : 'PostgreSQL'} database; this installation uses ${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'} (DATABASE_URL)`);
    }
    if (manifest.schema !== '' && !knownMigrations.includes(manifest.schema)) {
      throw new RestoreError(`${archive} was taken at schema ${manifest.schema} by release ${manifest.version}, newer than this release knows: restore it with that release or a newer one`);
    }
    await checkDatabaseCopy(archive, folder, manifest, dialect, knownMigrations);
    return { folder, manifest };
  } catch (error) {
    fs.rmSync(folder, { recursive: true, force: true });
    throw asRestoreError(error);
  }
}

export const databaseMember = (dialect: Dialect) => (dialect === 'sqlite' ? 'database.sqlite' : 'database.pgdump');

/**
 * Opens the archive's copy of the database before anything of the installation is touched: SQLite's integrity check
 * and the schema the manifest names; a PostgreSQL dump read whole by pg_restore --list.
 */
async function checkDatabaseCopy(archive: string, folder: string, manifest: BackupManifest, dialect: Dialect, knownMigrations: string[]): Promise<void> {
  const member = databaseMember(dialect);
  if (!Object.hasOwn(manifest.files, member)) throw new RestoreError(`${archive} holds no ${member}: nothing was restored`);
  const copy = path.join(folder, member);
  if (dialect === 'postgres') {
    try {
      await runProgram('pg_restore', ['--list', copy]);
    } catch (error) {
      throw new RestoreError(`${archive}'s ${member} cannot be read: ${error instanceof Error ? error.message : String(error)}; nothing was restored`);
    }
    return;
  }
  let problem: string | null = null;
  try {
    const engine = openSqlite(copy);
    try {
      const rows = engine.prepare('PRAGMA integrity_check').all([]) as { integrity_check: string }[];
      if (rows[0]?.integrity_check !== 'ok') problem = `fails SQLite's integrity check (${rows.map((row) => row.integrity_check).slice(0, 3).join('; ')})`;
      else {
        const hasTable = engine.prepare(`select 1 as one from sqlite_master where type = 'table' and name = 'kysely_migration'`).all([]).length > 0;
        const schema = hasTable ? ((engine.prepare('select name from kysely_migration order by name desc limit 1').all([]) as { name: string }[])[0]?.name ?? '') : '';
        if (schema !== manifest.schema) problem = `is at schema ${schema || 'none'}, not the manifest's ${manifest.schema || 'none'}`;
        else if (schema !== '' && !knownMigrations.includes(schema)) problem = `is at schema ${schema}, which this release does not know`;
      }
    } finally {
      engine.close();
    }
  } catch (error) {
    problem = `cannot be opened: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (problem !== null) throw new RestoreError(`${archive}'s ${member} ${problem}; nothing was restored`);
}

/** Moves `from` to `to`, keeping what was at `to` as `<to>.before-restore` until `commit` or `undo` is called. */
function swapIn(from: string | null, to: string): { commit: () => void; undo: () => void } {
  const kept = `${to}.before-restore`;
  fs.rmSync(kept, { recursive: true, force: true });
  const had = fs.existsSync(to);
  if (had) fs.renameSync(to, kept);
  try {
    if (from !== null) {
      fs.mkdirSync(path.dirname(to), { recursive: true, mode: 0o700 });
      fs.renameSync(from, to);
    }
  } catch (error) {
    if (had) fs.renameSync(kept, to);
    throw error;
  }
  return {
    commit: () => fs.rmSync(kept, { recursive: true, force: true }),
    undo: () => {
      fs.rmSync(to, { recursive: true, force: true });
      if (had) fs.renameSync(kept, to);
    },
  };
}

/**
 * Puts a checked archive in place of the installation's data: the database (SQLite: the file swapped whole, its
 * -wal and -shm of the old one removed; PostgreSQL: pg_restore into DATABASE_URL in one transaction), DATA_DIR/tools,
 * the sub-app builds and, when given, the KEK copy. What was there is kept until everything is in place, and put
 * back if a step fails.
 */
export async function putInPlace(checked: CheckedArchive, settings: BackupSettings, dialect: Dialect, kekCopy: string | null, resetPostgres: () => Promise<void>): Promise<void> {
  const { folder } = checked;
  const swaps: { commit: () => void; undo: () => void }[] = [];
  try {
    if (kekCopy !== null) {
      if (!fs.existsSync(kekCopy)) throw new RestoreError(`--kek ${kekCopy} is not a file`);
      const staged = path.join(folder, 'restored.kek');
      fs.copyFileSync(kekCopy, staged);
      fs.chmodSync(staged, 0o600);
      swaps.push(swapIn(staged, settings.systemKeyKekFile));
    }
    const tools = path.join(folder, 'tools');
    swaps.push(swapIn(fs.existsSync(tools) ? tools : null, path.join(settings.dataDir, 'tools')));
    const subApps = path.join(folder, 'subapps');
    swaps.push(swapIn(fs.existsSync(subApps) ? subApps : null, settings.subAppsDir));
    if (dialect === 'sqlite') {
      const copy = path.join(folder, databaseMember('sqlite'));
      // unpackAndCheck left only regular files here; the mode set on the file itself, never through a link
      const handle = fs.openSync(copy, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
      try {
        fs.fchmodSync(handle, 0o600);
      } finally {
        fs.closeSync(handle);
      }
      // the old file's journal must not be applied to the restored one
      for (const suffix of ['-wal', '-shm']) swaps.push(swapIn(null, `${settings.sqliteFile}${suffix}`));
      swaps.push(swapIn(copy, settings.sqliteFile));
    } else {
      if (settings.databaseUrl === null) throw new RestoreError('DATABASE_URL is not set');
      const databaseUrl = settings.databaseUrl;
      const restore = (dump: string) => runPostgresTool('pg_restore', ['--no-owner', '--single-transaction', dump], databaseUrl);
      // the database as it is now, put back if the restore fails: a schema of a newer release (a rollback) has
      // tables the backup does not know, so the schema is emptied rather than only the backup's tables replaced
      const safety = path.join(folder, 'before-restore.pgdump');
      await runPostgresTool('pg_dump', ['--format=custom', '--no-owner', `--file=${safety}`], databaseUrl);
      await resetPostgres();
      try {
        await restore(path.join(folder, 'database.pgdump'));
      } catch (error) {
        await resetPostgres();
        await restore(safety);
        throw error;
      }
    }
  } catch (error) {
    for (const swap of swaps.reverse()) swap.undo();
    throw asRestoreError(error);
  }
  for (const swap of swaps) swap.commit();
}
