import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackupLogRepository } from '../../src/modules/backup-log/backup-log-repository.ts';
import { BackupLogService } from '../../src/modules/backup-log/backup-log-service.ts';
import { filesUnder, sha256Of, takeBackup } from '../../src/modules/backup/backup-archive.ts';
import { databases, freshDatabase, runCampus, startServer, tempDir } from '../support/helpers.ts';

const campus = runCampus;

function tar(args: string[]): void {
  const run = spawnSync('tar', args, { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`tar ${args.join(' ')}: ${run.stderr}`);
}

/** Every entry under `root` (links not followed) with its kind, mode and content or target. */
function snapshot(root: string): Record<string, string> {
  const seen: Record<string, string> = {};
  const walk = (folder: string) => {
    for (const name of fs.readdirSync(folder).sort()) {
      const full = path.join(folder, name);
      const stat = fs.lstatSync(full);
      const mode = (stat.mode & 0o7777).toString(8);
      const key = path.relative(root, full);
      if (stat.isSymbolicLink()) seen[key] = `link ${fs.readlinkSync(full)}`;
      else if (stat.isDirectory()) {
        seen[key] = `folder ${mode}`;
        walk(full);
      } else seen[key] = `file ${mode} ${createHash('sha256').update(fs.readFileSync(full)).digest('hex')}`;
    }
  };
  walk(root);
  return seen;
}

describe.each(databases)('campus restore refuses a crafted archive and changes nothing (%s)', (kind) => {
  const member = kind === 'sqlite' ? 'database.sqlite' : 'database.pgdump';
  let work: string;
  let unpacked: string;
  let installation: string;
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let env: Record<string, string>;
  let outsideFile: string;

  beforeAll(async () => {
    work = tempDir();
    const server = await startServer(kind, { env: { PRIVATE_DEPLOYMENT: 'on' } });
    let archive: string;
    try {
      const backupLogs = new BackupLogService({ repo: new BackupLogRepository(server.handle.db), now: server.clock.now });
      fs.mkdirSync(path.join(server.config.dataDir, 'tools'), { recursive: true });
      fs.writeFileSync(path.join(server.config.dataDir, 'tools', 'reader.txt'), 'a tool');
      const taken = await takeBackup({ settings: server.config, db: server.handle.db, dialect: server.handle.dialect, backupLogs, now: server.clock.now });
      archive = path.join(work, 'good.tar.gz');
      fs.copyFileSync(taken.archive, archive);
    } finally {
      await server.close();
    }
    unpacked = path.join(work, 'unpacked');
    fs.mkdirSync(unpacked);
    tar(['-xzf', archive, '-C', unpacked]);
    // an installation the good archive was restored into, with nothing running on it
    installation = tempDir();
    database = await freshDatabase(kind, installation);
    env = { NODE_ENV: 'test', DATA_DIR: installation, DATABASE_URL: database.url ?? '', PORT: '9', HOST: '127.0.0.1' };
    const run = await campus(['restore', archive, '--yes'], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const outside = tempDir();
    outsideFile = path.join(outside, 'secret.txt');
    fs.writeFileSync(outsideFile, 'not the installation\'s');
    fs.chmodSync(outsideFile, 0o644);
  });
  afterAll(async () => {
    await database?.drop();
    for (const folder of [work, installation, outsideFile && path.dirname(outsideFile)]) if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  /** The good archive's members, changed by `craft`, with a manifest that matches its regular files. */
  function crafted(name: string, craft: (folder: string, manifest: { schema: string; files: Record<string, string> }) => void): string {
    const folder = path.join(work, name);
    fs.cpSync(unpacked, folder, { recursive: true });
    const manifestFile = path.join(folder, 'manifest.json');
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { schema: string; files: Record<string, string> };
    craft(folder, manifest);
    manifest.files = Object.fromEntries(filesUnder(folder).filter((m) => m !== 'manifest.json').map((m) => [m, sha256Of(path.join(folder, m))]));
    fs.writeFileSync(manifestFile, JSON.stringify(manifest));
    const archive = path.join(work, `${name}.tar.gz`);
    tar(['-czf', archive, '-C', folder, '.']);
    return archive;
  }

  async function refused(archive: string, said: RegExp): Promise<void> {
    const before = snapshot(installation);
    const passwd = { mode: fs.statSync('/etc/passwd').mode, text: fs.readFileSync('/etc/passwd', 'utf8') };
    const run = await campus(['restore', archive, '--yes'], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(said);
    expect(run.stderr).toContain('nothing was restored');
    // the data folder as it was, nothing outside it changed
    expect(snapshot(installation)).toEqual(before);
    expect(fs.statSync(outsideFile).mode & 0o777).toBe(0o644);
    expect(fs.readFileSync(outsideFile, 'utf8')).toBe('not the installation\'s');
    expect(fs.statSync('/etc/passwd').mode).toBe(passwd.mode);
    expect(fs.readFileSync('/etc/passwd', 'utf8')).toBe(passwd.text);
  }

  it('a database that is a link to a file elsewhere', async () => {
    const archive = crafted('linked-database', (folder) => {
      fs.rmSync(path.join(folder, member));
      fs.symlinkSync(outsideFile, path.join(folder, member));
    });
    await refused(archive, new RegExp(`^Restore failed: .* holds symbolic link ${member.replace('.', '\\.')}: a campus backup holds only files and folders`, 'm'));
  });

  it('a tools folder that is a link to /etc', async () => {
    const archive = crafted('linked-tools', (folder) => {
      fs.rmSync(path.join(folder, 'tools'), { recursive: true });
      fs.symlinkSync('/etc', path.join(folder, 'tools'));
    });
    await refused(archive, /holds symbolic link tools:/);
  });

  it('a sub-app file that is a link to /etc/passwd', async () => {
    const archive = crafted('linked-passwd', (folder) => {
      fs.mkdirSync(path.join(folder, 'subapps', 'leak'), { recursive: true });
      fs.symlinkSync('/etc/passwd', path.join(folder, 'subapps', 'leak', 'passwd'));
    });
    await refused(archive, /holds symbolic link subapps\/leak\/passwd:/);
  });

  it('a hard link', async () => {
    const archive = crafted('hard-link', (folder) => {
      fs.mkdirSync(path.join(folder, 'subapps', 'leak'), { recursive: true });
      fs.linkSync(path.join(folder, 'tools', 'reader.txt'), path.join(folder, 'subapps', 'leak', 'reader.txt'));
    });
    await refused(archive, /holds hard link (tools\/reader\.txt|subapps\/leak\/reader\.txt):/);
  });

  it('a database that is not one, with a matching checksum: opened and refused before anything is swapped', async () => {
    const archive = crafted('not-a-database', (folder) => fs.writeFileSync(path.join(folder, member), 'this is not a database '.repeat(200)));
    await refused(archive, new RegExp(`'s ${member.replace('.', '\\.')} (cannot be opened|cannot be read|fails SQLite's integrity check)`));
  });

  // a dump's schema is read only when pg_restore loads it: SQLite's file is opened and asked
  if (kind === 'sqlite') {
    it('a database whose schema is not the one its manifest names', async () => {
      const archive = crafted('other-schema', (_folder, manifest) => {
        manifest.schema = '0001_initial';
      });
      await refused(archive, /'s database\.sqlite is at schema \S+, not the manifest's 0001_initial/);
    });
  }
});
