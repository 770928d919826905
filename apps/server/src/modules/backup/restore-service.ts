import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { dialectOf } from '../../db/database.ts';
import type { DatabaseHandle } from '../../db/database.ts';
import { knownMigrations } from '../../db/migrations.ts';
import { AuthRepository } from '../sessions/auth-repository.ts';
import { BackupLogRepository } from '../backup-log/backup-log-repository.ts';
import { BackupLogService } from '../backup-log/backup-log-service.ts';
import { OperationLogRepository } from '../operation-log/operation-log-repository.ts';
import { installationWide, OperationLogService } from '../operation-log/operation-log-service.ts';
import type { BackupManifest, BackupSettings } from './backup-archive.ts';
import { putInPlace, RestoreError, unpackAndCheck } from './restore-archive.ts';

export interface RestoreSettings extends BackupSettings {
  /** Where this installation's server listens: a restore refuses to run while one answers there. */
  host: string;
  port: number;
}

export interface RestoreDeps {
  settings: RestoreSettings;
  /**
   * Opens the installation's database; the restore closes each handle it opens. Called only once the archive is
   * checked: on PostgreSQL to empty the schema before pg_restore, then (both databases) over the restored copy,
   * which on SQLite is a new file in place of the old one.
   */
  openDatabase: () => DatabaseHandle;
  now: () => number;
}

export interface RestoreRequest {
  /** The archive `campus backup` made (an absolute path). */
  archive: string;
  /** The KEK copy to put in place of the installation's KEK file (absolute), or null to keep the installation's. */
  kek: string | null;
  /** Who restores, as the operation log names them. */
  actor: { account: string; clientIp: string };
}

export interface RestoreOutcome {
  manifest: BackupManifest;
  /** Sessions there were in the restored database, all removed. */
  sessionsEnded: number;
  /** The archive lay in BACKUP_DIR without a row of its own, and the Backup Log lists it again. */
  relisted: boolean;
  /** No KEK copy was given, and the one `campus backup` wrote beside the archive is there (and was not restored). */
  kekLeftBeside: boolean;
}

/** Whether a server answers on the installation's port: its URL, or null. */
async function serverAnswers(settings: RestoreSettings): Promise<string | null> {
  const host = settings.host === '0.0.0.0' || settings.host === '::' ? '127.0.0.1' : settings.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${settings.port}/livez`;
  try {
    const reply = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return reply.ok ? url : null;
  } catch {
    return null;
  }
}

/** The KEK file `campus backup` writes beside an archive. */
function kekBeside(archive: string): string {
  return path.join(path.dirname(archive), path.basename(archive).replace(/\.tar\.gz$/, '.kek'));
}

/**
 * `campus restore` (docs/operating.md#backups): puts a backup in place of a stopped installation's database, tools
 * and sub-app builds, ends every session and says so in the installation-wide operation log. The steps, in order:
 * no server may answer on the installation's port (a restore under a running server would be lost or worse); the
 * archive is checked whole against its manifest; its copies are put in place (what was there is put back if a step
 * fails); then, over the restored database, every session ends, the archive is listed again when it lies in
 * BACKUP_DIR, and the log row is written. Every refusal is a RestoreError.
 */
export class RestoreService {
  constructor(private readonly deps: RestoreDeps) {}

  private async withDatabase<T>(work: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
    const handle = this.deps.openDatabase();
    try {
      return await work(handle);
    } finally {
      await handle.close();
    }
  }

  async restore(request: RestoreRequest): Promise<RestoreOutcome> {
    const { settings } = this.deps;
    const running = await serverAnswers(settings);
    if (running) throw new RestoreError(`a server answers at ${running}: stop it first (systemctl stop campus-server, and every other node on this database), then restore`);
    const dialect = dialectOf(settings);
    const checked = await unpackAndCheck(request.archive, settings, dialect, knownMigrations(dialect));
    try {
      // a schema of a newer release (a rollback) has tables the backup does not know: emptied whole
      const emptyPostgresSchema = () =>
        this.withDatabase(async (handle) => {
          await sql`drop schema public cascade`.execute(handle.db);
          await sql`create schema public`.execute(handle.db);
        });
      await putInPlace(checked, settings, dialect, request.kek, emptyPostgresSchema);
    } finally {
      fs.rmSync(checked.folder, { recursive: true, force: true });
    }
    const { manifest } = checked;
    const { sessionsEnded, relisted } = await this.withDatabase(async (handle) => {
      // whoever was signed in when the backup was taken signs in again
      const ended = await new AuthRepository(handle.db, handle.dialect).deleteAllSessions();
      // a copy holds the rows of the backups before it, not its own: listed again when it lies in BACKUP_DIR, so
      // About System shows it and its retention removes it in time
      const backupLogs = new BackupLogService({ repo: new BackupLogRepository(handle.db), now: this.deps.now });
      const name = path.basename(request.archive);
      const relist = path.dirname(request.archive) === settings.backupDir && !(await backupLogs.isListed(name));
      if (relist) {
        await backupLogs.add({
          name,
          backupTime: manifest.createdAt,
          filePath: settings.backupDir,
          addr: manifest.host,
          retentionDay: settings.backupRetentionDays,
          size: fs.statSync(request.archive).size,
          remarks: 'Listed again after it was restored',
        });
      }
      await new OperationLogService({ repo: new OperationLogRepository(handle.db), now: this.deps.now }).record({
        tenantCode: installationWide,
        account: request.actor.account,
        action: 'restore',
        result: 'success',
        clientIp: request.actor.clientIp,
        detail: `restored from ${name} (taken ${new Date(manifest.createdAt).toISOString()} on ${manifest.host} by release ${manifest.version}, schema ${manifest.schema}); ${ended} session(s) ended`,
      });
      return { sessionsEnded: ended, relisted: relist };
    });
    return { manifest, sessionsEnded, relisted, kekLeftBeside: request.kek === null && fs.existsSync(kekBeside(request.archive)) };
  }
}
