import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { BackupLogRepository } from '../../src/modules/backup-log/backup-log-repository.ts';
import { BackupLogService } from '../../src/modules/backup-log/backup-log-service.ts';
import { takeBackup } from '../../src/modules/backup/backup-archive.ts';
import { RestoreError } from '../../src/modules/backup/restore-archive.ts';
import { RestoreService } from '../../src/modules/backup/restore-service.ts';
import { databases, freshDatabase, signIn, startServer, tempDir } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';

const actor = { account: 'cli:operator', clientIp: 'localhost' };

describe.each(databases)('the restore service (%s)', (kind) => {
  let server: TestServer;
  /** Taken with two sessions signed in; its own row is not in it. */
  let first: string;
  /** Taken after `first`: its database lists `first`. */
  let second: string;
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    server = await startServer(kind, { env: { PRIVATE_DEPLOYMENT: 'on' } });
    await signIn(server, 'sysadmin', 'Sysadmin#2026');
    await signIn(server, 'staff', 'Staff#2026');
    const deps = { settings: server.config, db: server.handle.db, dialect: server.handle.dialect, backupLogs: new BackupLogService({ repo: new BackupLogRepository(server.handle.db), now: server.clock.now }), now: server.clock.now };
    first = (await takeBackup(deps)).archive;
    server.clock.advance(1_000);
    second = (await takeBackup(deps)).archive;
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** A new, stopped installation (nothing answers on port 9) and a restore service over it. */
  async function installation(env: Record<string, string> = {}) {
    const dataDir = tempDir();
    const database = await freshDatabase(kind, dataDir);
    cleanups.push(async () => {
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    const settings = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: database.url ?? '', PORT: '9', HOST: '127.0.0.1', BACKUP_RETENTION_DAYS: '30', ...env });
    const open = () => openDatabase(settings);
    const service = new RestoreService({ settings, openDatabase: open, now: () => 1_800_000_000_000 });
    const read = async <T>(work: (handle: ReturnType<typeof open>) => Promise<T>): Promise<T> => {
      const handle = open();
      try {
        return await work(handle);
      } finally {
        await handle.close();
      }
    };
    return { settings, service, read };
  }

  it('ends every session the backup held and says how many in the installation-wide log, as the actor', async () => {
    const { service, read } = await installation();
    const outcome = await service.restore({ archive: first, kek: null, actor });
    expect(outcome.sessionsEnded).toBe(2);
    expect(outcome.relisted).toBe(false);
    expect(outcome.kekLeftBeside).toBe(false);
    const { sessions, log, backups } = await read(async (handle) => ({
      sessions: await handle.db.selectFrom('sessions').select('token_hash').execute(),
      log: await handle.db.selectFrom('operation_logs').selectAll().where('action', '=', 'restore').execute(),
      backups: await handle.db.selectFrom('backup_logs').select('name').execute(),
    }));
    expect(sessions).toEqual([]);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ tenant_code: '', account: 'cli:operator', client_ip: 'localhost', result: 'success' });
    expect(log[0]!.detail).toBe(
      `restored from ${path.basename(first)} (taken ${new Date(outcome.manifest.createdAt).toISOString()} on ${outcome.manifest.host} by release ${outcome.manifest.version}, schema ${outcome.manifest.schema}); 2 session(s) ended`,
    );
    // an archive from outside BACKUP_DIR is not listed
    expect(backups).toEqual([]);
  });

  it('lists an archive of BACKUP_DIR again only when the restored log does not list it yet', async () => {
    const { settings, service, read } = await installation();
    fs.mkdirSync(settings.backupDir, { recursive: true, mode: 0o700 });
    // the first archive: its own row is not in it, so it is listed again with this installation's retention
    const copy = path.join(settings.backupDir, path.basename(first));
    fs.copyFileSync(first, copy);
    expect((await service.restore({ archive: copy, kek: null, actor })).relisted).toBe(true);
    const rowsOf = () => read((handle) => handle.db.selectFrom('backup_logs').select(['name', 'size', 'retention_day', 'remarks']).execute());
    expect((await rowsOf()).map((row) => ({ ...row, size: Number(row.size), retention_day: Number(row.retention_day) }))).toEqual([
      { name: path.basename(first), size: fs.statSync(copy).size, retention_day: 30, remarks: 'Listed again after it was restored' },
    ]);
    // the second archive under the first one's name: its database lists that name already, and no second row comes
    fs.copyFileSync(second, copy);
    expect((await service.restore({ archive: copy, kek: null, actor })).relisted).toBe(false);
    const rows = await rowsOf();
    expect(rows.map((row) => row.name)).toEqual([path.basename(first)]);
    // the row the second archive's database holds, as the backup wrote it
    expect(rows[0]!.remarks).toBe('Backup by hand');
  });

  it('says when the KEK copy beside the archive was left, and puts a given KEK copy in place', async () => {
    const { settings, service } = await installation();
    const folder = tempDir();
    cleanups.push(async () => fs.rmSync(folder, { recursive: true, force: true }));
    const archive = path.join(folder, path.basename(first));
    fs.copyFileSync(first, archive);
    const beside = archive.replace(/\.tar\.gz$/, '.kek');
    fs.writeFileSync(beside, 'the KEK of the backup');
    expect((await service.restore({ archive, kek: null, actor })).kekLeftBeside).toBe(true);
    expect(fs.existsSync(settings.systemKeyKekFile)).toBe(false);
    expect((await service.restore({ archive, kek: beside, actor })).kekLeftBeside).toBe(false);
    expect(fs.readFileSync(settings.systemKeyKekFile, 'utf8')).toBe('the KEK of the backup');
  });

  it('refuses while a server answers on the installation\'s port, before the archive is even unpacked', async () => {
    const { settings, service } = await installation({ PORT: new URL(server.url).port });
    const before = fs.readdirSync(settings.dataDir).sort();
    const refused = service.restore({ archive: first, kek: null, actor });
    await expect(refused).rejects.toThrow(RestoreError);
    await expect(refused).rejects.toThrow(`a server answers at http://127.0.0.1:${new URL(server.url).port}/livez: stop it first`);
    expect(fs.readdirSync(settings.dataDir).sort()).toEqual(before);
  });
});
