import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sm2 } from 'sm-crypto-v2';
import type { BackupLogRow, OperationLogRow, PasswordComplexity } from '@campus/contracts';
import { apiPaths, codes } from '@campus/contracts';
import { openDatabase } from '../../src/db/database.ts';
import { BackupLogRepository } from '../../src/modules/backup-log/backup-log-repository.ts';
import { BackupLogService } from '../../src/modules/backup-log/backup-log-service.ts';
import { takeBackup } from '../../src/modules/backup/backup-archive.ts';
import { migrateUpTo } from '../../src/db/migrations.ts';
import { issueLicenceFile } from '../../src/modules/licence/licence-file.ts';
import { call, databases, freshDatabase, runCampus, sha256, signIn, startServer, tempDir } from '../support/helpers.ts';
import { docsLicences, edKey, samplePayload } from '../support/licence-helpers.ts';
import type { TestServer } from '../support/helpers.ts';

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
  const backupLogs = new BackupLogService({ repo: new BackupLogRepository(server.handle.db), now: server.clock.now });
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
      expect(dry.stdout).toContain('Would apply 7 migration(s)');
      expect(dry.stdout).toContain('  0019_master_token_issuer\n  0020_trusted_issuer_registry\n  0021_installation_admin\n  0022_customer_password_guard\n  0023_card_login_setting\n  0024_identity_providers\n  0025_sso_logout_tokens\n');
      expect((await campus(['version'], env)).stdout).toMatch(/Schema 0018_card_issue_history \(this release's is 0025_\w+: run campus migrate\)/);
      const real = await campus(['migrate'], env);
      expect(real.code).toBe(0);
      expect(real.stdout).toBe('Applied 0019_master_token_issuer\nApplied 0020_trusted_issuer_registry\nApplied 0021_installation_admin\nApplied 0022_customer_password_guard\nApplied 0023_card_login_setting\nApplied 0024_identity_providers\nApplied 0025_sso_logout_tokens\nThe database is at 0025_sso_logout_tokens.\n');
      expect((await campus(['migrate', '--dry-run'], env)).stdout).toBe('The database is up to date (0025_sso_logout_tokens).\n');
      const version = await campus(['version'], env);
      expect(version.stdout).toMatch(/^campus-shell \d+\.\d+\.\d+\.\d+\nNode\.js v\d+/);
      expect(version.stdout).toContain('Schema 0025_sso_logout_tokens (up to date)');
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
      expect(good.stdout).toContain('ok    the database is migrated (0025_sso_logout_tokens)');
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

describe('campus licence: the vendor\'s licence on a fresh installation (issue 48 item 1)', () => {
  const trust = path.join(import.meta.dirname, '..', '..', 'licence-keys', 'test-trust.json');
  const files = tempDir();
  const licenceFile = (name: string, overrides: Parameters<typeof samplePayload>[0] = {}) => {
    const file = path.join(files, name);
    fs.writeFileSync(file, issueLicenceFile(samplePayload({ endTime: Date.UTC(2099, 11, 31), ...overrides }), edKey));
    return file;
  };
  afterAll(() => fs.rmSync(files, { recursive: true, force: true }));

  /** The one-time password's change, as the shell's dialog sends it. */
  async function changePassword(server: TestServer, token: string, current: string, next: string) {
    const complexity = await call<PasswordComplexity>(server, 'GET', apiPaths.passwordComplexity, undefined, { token });
    return call(server, 'POST', apiPaths.changePassword, { oprtPwd: sha256(current), oprtNewPwd: sha256(next), sealedNewPwd: sm2.doEncrypt(next, complexity.body.data.sealKey, 1) }, { token, language: 'en-US' });
  }

  it('licence add puts the licence in effect (the customer number taken from it); then the one-time password can be changed', async () => {
    const dataDir = tempDir();
    try {
      const env = { NODE_ENV: 'production', DATA_DIR: dataDir, LICENCE_TRUST_FILE: trust, PORT: '9', HOST: '127.0.0.1' };
      const init = await campus(['init'], env);
      const password = /^password (\S+)$/m.exec(init.stdout)?.[1] ?? '';
      const server = await startServer('sqlite', { env: { NODE_ENV: 'production', DATA_DIR: dataDir, LICENCE_TRUST_FILE: trust } });
      try {
        // without a licence the change is refused: the dead end docs/operating.md used to leave the operator in
        const before = await signIn(server, 'admin', password, '1001');
        expect((await changePassword(server, before, password, 'First#Change1')).body.code).toBe(codes.licenceRequired);
        const empty = await campus(['licence', 'list'], env);
        expect(empty.stdout).toContain('Customer number (none yet');
        expect(empty.stdout).toContain('Status: NO LICENCE yet');

        const added = await campus(['licence', 'add', licenceFile('customer-10001.lic', { code: 'VENDOR-0001', customerName: 'North Campus' })], env);
        expect([added.code, added.stderr]).toEqual([0, '']);
        expect(added.stdout).toContain('The installation took its customer number 10001 from the licence.');
        expect(added.stdout).toContain('Licence VENDOR-0001 is in effect.');
        const listed = await campus(['licence', 'list'], env);
        expect(listed.stdout).toMatch(/^Customer number 10001, system code [0-9A-F]{16}\nStatus: a licence is in effect\nVENDOR-0001 {2}formal {2}in effect {2}2026-01-01 to 2099-12-31 {2}customer North Campus {2}apps qy {2}employees 500\n$/);

        // the administrator signs in again (the licence prompt's Return to login) and changes the password
        const after = await signIn(server, 'admin', password, '1001');
        const permission = await call<{ isNormal: boolean }>(server, 'GET', apiPaths.licencePermission, undefined, { token: after });
        expect(permission.body.data.isNormal).toBe(true);
        expect((await changePassword(server, after, password, 'First#Change1')).body.code).toBe(codes.ok);
        expect(await signIn(server, 'admin', 'First#Change1', '1001')).not.toBe('');

        // the same file again changes nothing; the installation-wide log names the operator
        const again = await campus(['licence', 'add', path.join(files, 'customer-10001.lic')], env);
        expect([again.code, again.stdout]).toEqual([0, 'Licence VENDOR-0001 was in effect already.\n']);
        const log = await server.handle.db.selectFrom('operation_logs').selectAll().where('action', 'in', ['licence-upload', 'licence-activate']).execute();
        expect(log.map((row) => [row.tenant_code, row.action, row.result, row.account.startsWith('cli:'), row.detail]).sort()).toEqual([
          ['', 'licence-activate', 'success', true, 'VENDOR-0001'],
          ['', 'licence-upload', 'success', true, 'accepted: VENDOR-0001; refused: 0'],
          ['', 'licence-upload', 'success', true, 'accepted: VENDOR-0001; refused: 0; the installation took its customer number 10001 from it'],
        ]);
      } finally {
        await server.close();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('licence add refuses a file that does not verify, is another customer\'s, has expired or is no .lic, and says why', async () => {
    const dataDir = tempDir();
    try {
      const env = { NODE_ENV: 'production', DATA_DIR: dataDir, LICENCE_TRUST_FILE: trust, CUSTOMER_NO: '20002' };
      expect((await campus(['init'], env)).code).toBe(0);
      const other = await campus(['licence', 'add', licenceFile('other.lic', { code: 'OTHER-1' })], env);
      expect([other.code, other.stderr]).toEqual([1, 'other.lic was not installed: This licence is for another installation (customer number 10001)\n']);
      const tampered = await campus(['licence', 'add', path.join(docsLicences, 'tampered-example.lic')], env);
      expect(tampered.code).toBe(1);
      expect(tampered.stderr).toContain('tampered-example.lic was not installed: Authorization tampered');
      const expired = await campus(['licence', 'add', licenceFile('expired.lic', { code: 'OLD-1', customerNo: '20002', beginTime: Date.UTC(2020, 0, 1), endTime: Date.UTC(2021, 0, 1) })], env);
      expect(expired.code).toBe(1);
      expect(expired.stderr).toBe('expired.lic was not installed: OLD-1 is stored but not in effect: This licence cannot be activated: it has expired or has not started yet\n');
      const text = path.join(files, 'licence.txt');
      fs.copyFileSync(path.join(files, 'other.lic'), text);
      expect((await campus(['licence', 'add', text], env)).stderr).toContain('licence.txt is not a .lic file');
      expect((await campus(['licence', 'add', path.join(files, 'missing.lic')], env)).stderr).toContain('no such file');
      expect((await campus(['licence', 'frobnicate'], env)).stderr).toContain('the licence commands are add and list');
      const untrusted = await campus(['licence', 'add', path.join(files, 'other.lic')], { ...env, LICENCE_TRUST_FILE: '' });
      expect(untrusted.stderr).toContain('No vendor key is trusted on this server: set LICENCE_TRUST_FILE');
      // nothing is in effect, and a customer number set by CUSTOMER_NO is never replaced by a licence's
      const listed = await campus(['licence', 'list'], env);
      expect(listed.stdout).toMatch(/^Customer number 20002, /);
      expect(listed.stdout).toContain('Status: NOT VALID: no stored licence is within its validity');
      expect(listed.stdout).toContain('OLD-1  formal  not activated, expired  2020-01-01 to 2021-01-01');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('licence add - reads the file on stdin, as the release\'s campus hands it over when root runs it', async () => {
    const dataDir = tempDir();
    try {
      const env = { NODE_ENV: 'production', DATA_DIR: dataDir, LICENCE_TRUST_FILE: trust };
      expect((await campus(['init'], env)).code).toBe(0);
      const bytes = fs.readFileSync(licenceFile('stdin.lic', { code: 'STDIN-1' }));
      const added = await campus(['licence', 'add', '-', '--name', 'customer.lic'], env, bytes);
      expect([added.code, added.stderr]).toEqual([0, '']);
      expect(added.stdout).toContain('Licence STDIN-1 is in effect.');
      expect((await campus(['licence', 'add', '-', '--name', 'customer.txt'], env, bytes)).stderr).toContain('customer.txt is not a .lic file');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
