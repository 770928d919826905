import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackupLogRow, OperationLogRow } from '@campus/contracts';
import { apiPaths, codes } from '@campus/contracts';
import { openDatabase } from '../src/db/database.ts';
import { BackupLogRepository } from '../src/modules/backup-log/backup-log-repository.ts';
import { BackupLogService } from '../src/modules/backup-log/backup-log-service.ts';
import { takeBackup } from '../src/modules/backup/backup-archive.ts';
import { migrateUpTo } from '../src/db/migrations.ts';
import { call, databases, freshDatabase, runCampus, signIn, startServer, tempDir } from './helpers.ts';
import type { TestServer } from './helpers.ts';

const campus = runCampus;

/** The settings of a test server's installation, as its environment file would hold them. */
function settingsOf(server: TestServer, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    DATA_DIR: server.config.dataDir,
    DATABASE_URL: server.config.databaseUrl ?? '',
    // a port nothing listens on: the installation counts as stopped unless a test says otherwise
    PORT: '9',
    HOST: '127.0.0.1',
    ...extra,
  };
}

/** What `campus backup` gives takeBackup, for the test server's installation. */
function backupDeps(server: TestServer) {
  const backupLogs = new BackupLogService(new BackupLogRepository(server.handle.db), server.clock.now);
  return { settings: server.config, db: server.handle.db, dialect: server.handle.dialect, backupLogs, now: server.clock.now };
}

function backupRows(server: TestServer, token: string) {
  return call<BackupLogRow[]>(server, 'POST', apiPaths.backupLogSearch, { pageInfo: { index: 1, size: 100 } }, { token, language: 'en-US' });
}

describe.each(databases)('campus backup and restore (%s)', (kind) => {
  let server: TestServer;
  let token: string;
  let archive: string;
  beforeAll(async () => {
    server = await startServer(kind, { env: { PRIVATE_DEPLOYMENT: 'on' } });
    token = await signIn(server, 'sysadmin', 'Sysadmin#2026');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('backs up while users sign in, and About System lists the archive that is on disk', async () => {
    let writing = true;
    let signIns = 0;
    const load = (async () => {
      while (writing) {
        await signIn(server, 'staff', 'Staff#2026');
        signIns += 1;
      }
    })();
    const run = await campus(['backup', '--remarks', 'under load'], settingsOf(server));
    writing = false;
    await load;
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(signIns).toBeGreaterThan(0);
    archive = /^Backup (\S+) \(\d+ bytes\)/m.exec(run.stdout)?.[1] ?? '';
    expect(path.dirname(archive)).toBe(path.join(server.config.dataDir, 'backups'));
    const stat = fs.statSync(archive);
    expect(stat.mode & 0o777).toBe(0o600);
    const reply = await backupRows(server, token);
    expect(reply.body.code).toBe(codes.ok);
    expect(reply.body.data).toHaveLength(1);
    expect(reply.body.data[0]).toMatchObject({ name: path.basename(archive), filePath: path.dirname(archive), size: stat.size, retentionDay: 14, remarks: 'Backup by hand: under load' });
    // nothing half-written is left beside it
    expect(fs.readdirSync(path.dirname(archive))).toEqual([path.basename(archive)]);
  });

  it('refuses to restore while the server answers on the installation\'s port', async () => {
    const port = new URL(server.url).port;
    const run = await campus(['restore', archive, '--yes'], settingsOf(server, { PORT: port }));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`Restore failed: a server answers at http://127.0.0.1:${port}/livez: stop it first`);
  });

  it('restores into a new installation: sign-ins work there, later changes are not there, sessions ended, the log says so', async () => {
    // a change after the backup, which the restored installation must not have
    const multi = await signIn(server, 'multi', 'Multi#2026');
    expect(multi).not.toBe('');
    const dataDir = tempDir();
    const database = await freshDatabase(kind, dataDir);
    try {
      const env = { NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: database.url ?? '', PORT: '9', HOST: '127.0.0.1' };
      const run = await campus(['restore', archive, '--yes'], env);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('Every session has ended.');
      const restored = await startServer(kind, { env: { PRIVATE_DEPLOYMENT: 'on', DATA_DIR: dataDir, ...(database.url ? { DATABASE_URL: database.url } : {}) } });
      try {
        expect(restored.seed.mode).toBe('existing');
        const admin = await signIn(restored, 'sysadmin', 'Sysadmin#2026');
        // the session of the old installation is not one here
        expect((await call(restored, 'GET', apiPaths.userDetail, undefined, { token })).status).toBe(401);
        const log = await call<OperationLogRow[]>(restored, 'POST', apiPaths.operationLogSearch, { page: { index: 1, size: 100 } }, { token: admin, language: 'en-US' });
        expect(log.body.code).toBe(codes.ok);
        const restoreEntry = log.body.data.find((row) => row.action === 'restore');
        expect(restoreEntry?.detail).toContain(`restored from ${path.basename(archive)}`);
        // multi signed in after the backup: not in the restored log; staff's sign-ins under load before it are
        expect(log.body.data.some((row) => row.account === 'multi' && row.action === 'login')).toBe(false);
        expect(log.body.data.some((row) => row.account === 'staff' && row.action === 'login')).toBe(true);
        // the copy holds no row of itself, and this archive lies in another installation's folder: none is listed
        expect((await backupRows(restored, admin)).body.data).toEqual([]);
      } finally {
        await restored.close();
      }
    } finally {
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('an archive restored from BACKUP_DIR is listed again, so its retention still removes it', async () => {
    const dataDir = tempDir();
    const database = await freshDatabase(kind, dataDir);
    try {
      const backupDir = path.join(dataDir, 'backups');
      fs.mkdirSync(backupDir, { mode: 0o700 });
      const copy = path.join(backupDir, path.basename(archive));
      fs.copyFileSync(archive, copy);
      const run = await campus(['restore', copy, '--yes'], { NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: database.url ?? '', PORT: '9', BACKUP_RETENTION_DAYS: '30' });
      expect(run.code).toBe(0);
      const handle = openDatabase({ databaseUrl: database.url, sqliteFile: path.join(dataDir, 'campus.db') });
      try {
        const rows = await handle.db.selectFrom('backup_logs').select(['name', 'file_path', 'retention_day', 'size', 'remarks']).execute();
        expect(rows.map((row) => ({ ...row, retention_day: Number(row.retention_day), size: Number(row.size) }))).toEqual([
          { name: path.basename(archive), file_path: backupDir, retention_day: 30, size: fs.statSync(copy).size, remarks: 'Listed again after it was restored' },
        ]);
      } finally {
        await handle.close();
      }
    } finally {
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses an altered archive and changes nothing', async () => {
    const work = tempDir();
    try {
      const unpacked = path.join(work, 'unpacked');
      fs.mkdirSync(unpacked);
      await new Promise<void>((resolve, reject) => {
        const tar = spawn('tar', ['-xzf', archive, '-C', unpacked]);
        tar.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`tar ${code}`))));
      });
      const member = kind === 'sqlite' ? 'database.sqlite' : 'database.pgdump';
      fs.appendFileSync(path.join(unpacked, member), 'x');
      const altered = path.join(work, 'altered.tar.gz');
      await new Promise<void>((resolve, reject) => {
        const tar = spawn('tar', ['-czf', altered, '-C', unpacked, '.']);
        tar.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`tar ${code}`))));
      });
      const run = await campus(['restore', altered, '--yes'], settingsOf(server));
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`does not match its manifest (${member} changed)`);
      // the installation still answers as before
      expect(await signIn(server, 'staff', 'Staff#2026')).not.toBe('');
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });

  it('a backup that fails leaves no file and no row, and says why', async () => {
    const before = fs.readdirSync(path.join(server.config.dataDir, 'backups')).sort();
    const rowsBefore = (await backupRows(server, token)).body.data.length;
    // no tar (nor pg_dump) on the PATH
    const run = await campus(['backup'], settingsOf(server, { PATH: path.join(server.config.dataDir, 'no-programs-here') }));
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^Backup failed: (tar|pg_dump) is not installed/);
    expect(fs.readdirSync(path.join(server.config.dataDir, 'backups')).sort()).toEqual(before);
    expect((await backupRows(server, token)).body.data.length).toBe(rowsBefore);
  });

  it('the next backup removes the work folder of one killed on the way (a whole database copy), never that of one still running or of another host', async () => {
    const folder = path.join(server.config.dataDir, 'backups');
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    const leftovers = {
      killed: `.partial-${os.hostname()}-${dead}-aB3dE`,
      running: `.partial-${os.hostname()}-${process.pid}-fG5hI`,
      otherHost: `.partial-another-host-${dead}-jK7lM`,
    };
    for (const name of Object.values(leftovers)) {
      fs.mkdirSync(path.join(folder, name, 'content'), { recursive: true });
      fs.writeFileSync(path.join(folder, name, 'content', 'campus.db'), 'a copy of the database');
    }
    const taken = await takeBackup(backupDeps(server));
    const files = fs.readdirSync(folder);
    expect(files).toContain(taken.name);
    expect(files).not.toContain(leftovers.killed);
    expect(files).toContain(leftovers.running);
    expect(files).toContain(leftovers.otherHost);
    for (const name of [leftovers.running, leftovers.otherHost]) fs.rmSync(path.join(folder, name), { recursive: true });
  });

  it('two backups in the same second make two archives and two rows; neither overwrites the other', async () => {
    const [first, second] = await Promise.all([takeBackup(backupDeps(server), { remarks: 'one' }), takeBackup(backupDeps(server), { remarks: 'two' })]);
    expect(first.backupTime).toBe(second.backupTime);
    expect(new Set([first.name, second.name]).size).toBe(2);
    // the same second's stamp, told apart by a -N
    expect(first.name.replace(/(-\d+)?\.tar\.gz$/, '')).toBe(second.name.replace(/(-\d+)?\.tar\.gz$/, ''));
    for (const taken of [first, second]) expect(fs.statSync(taken.archive).size).toBe(taken.size);
    const rows = (await backupRows(server, token)).body.data.filter((row) => row.name === first.name || row.name === second.name);
    expect(rows.map((row) => row.remarks).sort()).toEqual(['Backup by hand: one', 'Backup by hand: two']);
    expect(fs.readdirSync(path.join(server.config.dataDir, 'backups')).filter((name) => name.startsWith('.partial-'))).toEqual([]);
  });

  it('removes backups past their retention with their rows, and never a file it did not make', async () => {
    const folder = path.join(server.config.dataDir, 'backups');
    const old = Date.UTC(2020, 0, 1);
    const oldArchive = 'campus-20200101-000000.tar.gz';
    fs.writeFileSync(path.join(folder, oldArchive), 'old');
    fs.writeFileSync(path.join(folder, 'campus-20200101-000000.kek'), 'old kek');
    fs.writeFileSync(path.join(folder, 'notes.txt'), 'an operator\'s own file');
    const row = (id: string, name: string) => ({ id, name, backup_time: old, file_path: folder, addr: 'h', retention_day: 14, size: 3, remarks: '', created_at: old });
    await server.handle.db.insertInto('backup_logs').values([row('old-archive', oldArchive), row('old-other', 'notes.txt')]).execute();
    const run = await campus(['backup', '--scheduled'], settingsOf(server));
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Removed ${oldArchive} (past its retention)`);
    const files = fs.readdirSync(folder);
    expect(files).not.toContain(oldArchive);
    expect(files).not.toContain('campus-20200101-000000.kek');
    expect(files).toContain('notes.txt');
    const names = (await backupRows(server, token)).body.data.map((r) => r.name);
    expect(names).not.toContain(oldArchive);
    expect(names).not.toContain('notes.txt');
    expect((await backupRows(server, token)).body.data[0]?.remarks).toBe('Scheduled backup');
  });
});

describe('campus migrate and version', () => {
  it('--dry-run names the pending migrations and changes nothing; migrate then applies and names them', async () => {
    const dataDir = tempDir();
    try {
      const handle = openDatabase({ databaseUrl: null, sqliteFile: path.join(dataDir, 'campus.db') });
      await migrateUpTo(handle.db, handle.dialect, '0018_card_issue_history');
      await handle.close();
      const env = { NODE_ENV: 'test', DATA_DIR: dataDir };
      const dry = await campus(['migrate', '--dry-run'], env);
      expect(dry.code).toBe(0);
      expect(dry.stdout).toContain('Would apply 5 migration(s)');
      expect(dry.stdout).toContain('  0019_master_token_issuer\n  0020_trusted_issuer_registry\n  0021_installation_admin\n  0022_customer_password_guard\n  0023_card_login_setting\n');
      expect((await campus(['version'], env)).stdout).toMatch(/Schema 0018_card_issue_history \(this release's is 0023_\w+: run campus migrate\)/);
      const real = await campus(['migrate'], env);
      expect(real.code).toBe(0);
      expect(real.stdout).toBe('Applied 0019_master_token_issuer\nApplied 0020_trusted_issuer_registry\nApplied 0021_installation_admin\nApplied 0022_customer_password_guard\nApplied 0023_card_login_setting\nThe database is at 0023_card_login_setting.\n');
      expect((await campus(['migrate', '--dry-run'], env)).stdout).toBe('The database is up to date (0023_card_login_setting).\n');
      const version = await campus(['version'], env);
      expect(version.stdout).toMatch(/^campus-shell \d+\.\d+\.\d+\.\d+\nNode\.js v\d+/);
      expect(version.stdout).toContain('Schema 0023_card_login_setting (up to date)');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('init prints the one-time credentials of a new production installation once, and nothing on later runs', async () => {
    const dataDir = tempDir();
    try {
      const env = { NODE_ENV: 'production', DATA_DIR: dataDir, IMAGE_CODE: 'off' };
      const first = await campus(['init'], env);
      expect(first.code).toBe(0);
      const match = /^tenant (\S+)\naccount (\S+)\npassword (\S{16})\n$/.exec(first.stdout);
      expect(match?.slice(1, 3)).toEqual(['1001', 'admin']);
      expect(first.stderr).not.toContain(match?.[3] ?? 'none');
      const again = await campus(['init'], env);
      expect(again.code).toBe(0);
      expect(again.stdout).toBe('');
      expect(again.stderr).toContain('holds an installation already');
      // the server started on it signs the administrator in with that password
      const server = await startServer('sqlite', { env: { NODE_ENV: 'production', DATA_DIR: dataDir } });
      try {
        expect(server.seed.mode).toBe('existing');
        expect(await signIn(server, 'admin', match?.[3] ?? '', '1001')).not.toBe('');
      } finally {
        await server.close();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('admin reset-password: a new one-time password on stdout, the old one and the sessions end, the change is forced, the log says who', async () => {
    const server = await startServer('sqlite');
    try {
      const old = await signIn(server, 'staff', 'Staff#2026');
      const env = { NODE_ENV: 'test', DATA_DIR: server.config.dataDir, PORT: '9' };
      const run = await campus(['admin', 'reset-password', '--tenant', '1001', '--account', 'staff'], env);
      expect(run.code).toBe(0);
      const password = /^tenant 1001\naccount staff\npassword (\S{16})\n$/.exec(run.stdout)?.[1] ?? '';
      expect(password).not.toBe('');
      expect(run.stderr).not.toContain(password);
      expect((await call(server, 'GET', apiPaths.userDetail, undefined, { token: old })).status).toBe(401);
      await expect(signIn(server, 'staff', 'Staff#2026')).rejects.toThrow(/sign-in of staff failed/);
      const fresh = await signIn(server, 'staff', password);
      const detail = await call<{ oprtPwdEditReason: number; isFirstLogin: boolean }>(server, 'GET', apiPaths.userDetail, undefined, { token: fresh });
      expect(detail.body.data).toMatchObject({ oprtPwdEditReason: 0, isFirstLogin: true });
      const admin = await signIn(server, 'sysadmin', 'Sysadmin#2026');
      const log = await call<OperationLogRow[]>(server, 'POST', apiPaths.operationLogSearch, { page: { index: 1, size: 100 }, action: 'password-reset' }, { token: admin, language: 'en-US' });
      expect(log.body.data).toHaveLength(1);
      expect(log.body.data[0]).toMatchObject({ account: 'staff', result: 'success' });
      expect(log.body.data[0]?.detail).not.toContain(password);
      const unknown = await campus(['admin', 'reset-password', '--tenant', '1001', '--account', 'nobody'], env);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('no account "nobody" in tenant 1001');
    } finally {
      await server.close();
    }
  });

  it('card-login: prints and sets a tenant\'s card sign-in, in the tenant\'s log; remarks no name may show are refused (issue 46)', async () => {
    const server = await startServer('sqlite');
    try {
      const env = { NODE_ENV: 'test', DATA_DIR: server.config.dataDir, PORT: '9' };
      const shown = await campus(['card-login', '--tenant', '1002'], env);
      expect([shown.code, shown.stdout]).toEqual([0, 'tenant 1002 card-login card-and-password\n']);
      const set = await campus(['card-login', '--tenant', '1002', 'card-alone'], env);
      expect([set.code, set.stdout, set.stderr]).toEqual([0, 'tenant 1002 card-login card-alone\n', '']);
      expect((await server.handle.db.selectFrom('tenants').select('card_login').where('code', '=', '1002').executeTakeFirstOrThrow()).card_login).toBe('card-alone');
      const log = await server.handle.db.selectFrom('operation_logs').selectAll().where('action', '=', 'card-login-setting').execute();
      expect(log.map((row) => [row.tenant_code, row.account.startsWith('cli:'), row.result, row.detail])).toEqual([['1002', true, 'success', 'card-alone']]);
      const bad = await campus(['card-login', '--tenant', '1002', 'card'], env);
      expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('card-login takes card-and-password or card-alone, not "card"')]);
      expect((await campus(['card-login', '--tenant', '9999', 'card-alone'], env)).stderr).toContain('no tenant 9999');
      expect((await campus(['card-login', 'card-alone'], env)).stderr).toContain('card-login needs --tenant');

      const remarks = await campus(['backup', '--remarks', 'before \u202Eexe.txt'], env);
      expect([remarks.code, remarks.stderr]).toEqual([2, expect.stringContaining('--remarks holds U+202E')]);
    } finally {
      await server.close();
    }
  });

  it('check: one line a check; a database others may read fails it, a missing folder is named', async () => {
    const dataDir = tempDir();
    try {
      const env = { NODE_ENV: 'test', DATA_DIR: dataDir };
      expect((await campus(['migrate'], env)).code).toBe(0);
      fs.chmodSync(dataDir, 0o700);
      const good = await campus(['check'], env);
      expect(good.code).toBe(0);
      expect(good.stdout).toContain('ok    the database is migrated (0023_card_login_setting)');
      expect(good.stdout).toContain(`ok    data folder (DATA_DIR) ${dataDir} takes writes`);
      expect(good.stdout).toContain(`warn  backup folder (BACKUP_DIR) ${path.join(dataDir, 'backups')} does not exist (the first backup makes it)`);
      fs.chmodSync(path.join(dataDir, 'campus.db'), 0o644);
      const wide = await campus(['check'], env);
      expect(wide.code).toBe(1);
      expect(wide.stdout).toContain(`FAIL  the SQLite database ${path.join(dataDir, 'campus.db')} is readable by others (mode 644): chmod 600`);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('says what is wrong with bad usage (exit 2)', async () => {
    const run = await campus(['restore'], { DATA_DIR: tempDir() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('restore needs the archive');
    const unknown = await campus(['frobnicate'], { DATA_DIR: tempDir() });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command "frobnicate"');
  });
});
