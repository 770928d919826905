import fs from 'node:fs';
import path from 'node:path';
import type { Dialect } from '../../db/database.ts';
import { makePrivateDir } from '../../lib/private-files.ts';
import type { BackupManifest, BackupSettings } from './backup-archive.ts';
import { BackupError, filesUnder, manifestName, runPostgresTool, runProgram, sha256Of } from './backup-archive.ts';

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
    try {
      await runProgram('tar', ['--no-same-owner', '--no-same-permissions', '-xzf', archive, '-C', folder]);
    } catch (error) {
      throw new RestoreError(`${archive} cannot be unpacked: ${error instanceof BackupError ? error.message : String(error)}`);
    }
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
    return { folder, manifest };
  } catch (error) {
    fs.rmSync(folder, { recursive: true, force: true });
    throw asRestoreError(error);
  }
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
      const copy = path.join(folder, 'database.sqlite');
      fs.chmodSync(copy, 0o600);
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
