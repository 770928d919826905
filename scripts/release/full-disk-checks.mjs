// The release test's full disk, made for real: a small tmpfs holds a second installation's data and backup folders
// (same release, its own environment file), is filled to the last byte, and the server and `campus backup` must
// say "storage full" (code 997, HTTP 507, /readyz red, one log line, no stack trace), write nothing half, and come
// back by themselves once space is freed. Needs root (mount) and runs inside the test's network namespace.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, chownSync, copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';

const port = 6327;
const base = `http://127.0.0.1:${port}`;

/** Writes zeros into `file` until the file system refuses (ENOSPC). */
function fill(file) {
  spawnSync('dd', ['if=/dev/zero', `of=${file}`, 'bs=4096'], { stdio: 'ignore' });
}

async function waitFor(probe, seconds) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (await probe().catch(() => false)) return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

export async function fullDiskChecks({ release, envFile, work, campusUid, check }) {
  const disk = path.join(work, 'full-disk');
  mkdirSync(disk, { recursive: true });
  // bigger than the 16 MB the server wants free to count as ready (lib/storage-watch.ts)
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=48m,mode=0755', 'tmpfs', disk]);
  let server = null;
  try {
    const dataDir = path.join(disk, 'data');
    const backupDir = path.join(disk, 'backups');
    for (const dir of [dataDir, backupDir]) {
      mkdirSync(dir, { mode: 0o700 });
      chownSync(dir, campusUid, campusUid);
    }
    // the installation's settings, on the small disk and another port (later lines win, as in systemd)
    const fullEnv = path.join(work, 'full-disk.env');
    copyFileSync(envFile, fullEnv);
    appendFileSync(fullEnv, `\n# the release test's full disk\nDATA_DIR=${dataDir}\nBACKUP_DIR=${backupDir}\nPORT=${port}\nLOG_LEVEL=info\n`);
    const env = { PATH: process.env.PATH, CAMPUS_ENV_FILE: fullEnv };
    const init = spawnSync(path.join(release, 'bin/campus'), ['init'], { env, encoding: 'utf8' });
    const admin = /tenant (\S+)\s+account (\S+)\s+password (\S+)/.exec(init.stdout);
    check('full disk: a second installation is initialised on a 48 MB disk', init.status === 0 && admin !== null, init.stderr);
    if (!admin) return;

    server = spawn(path.join(release, 'bin/campus-server'), [], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let log = '';
    server.stdout.on('data', (chunk) => { log += chunk; });
    server.stderr.on('data', (chunk) => { log += chunk; });
    const ready = () => fetch(`${base}/readyz`).then((reply) => reply.ok);
    check('full disk: its server starts', await waitFor(ready, 60), log.slice(-1500));
    const signIn = () => fetch(`${base}/user/api/v1.0/account/weblogin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', language: 'en-US' },
      body: JSON.stringify({ user: { account: admin[2], password: createHash('sha256').update(admin[3]).digest('hex'), tenantCode: admin[1] } }),
    }).then(async (reply) => ({ status: reply.status, body: await reply.json().catch(() => ({})) }));
    check('full disk: sign-in works while there is space', (await signIn()).body.code === 0);

    // the disk fills up (another program's file): the next writes of the server have nowhere to go
    const filler = path.join(disk, 'filler');
    fill(filler);
    let refused = null;
    for (let i = 0; i < 40 && refused === null; i += 1) {
      const reply = await signIn();
      if (reply.status !== 200 || reply.body.code !== 0) refused = reply;
    }
    check('full disk: a sign-in that cannot be saved answers HTTP 507, code 997 "storage full" in the caller\'s language',
      refused?.status === 507 && refused.body.code === 997 && /storage is full/.test(String(refused.body.msg)), JSON.stringify(refused));
    for (let i = 0; i < 5; i += 1) await signIn();
    const readyz = await fetch(`${base}/readyz`).then(async (reply) => ({ status: reply.status, body: await reply.json() }), () => null);
    // where: the path docs/operating.md promises, the database file that could not grow (it said "the database")
    check('full disk: /readyz answers 503 naming the storage and the full path', readyz?.status === 503 && readyz.body.failing?.some((failure) => failure.check === 'storage' && failure.where === path.join(dataDir, 'campus.db')), JSON.stringify(readyz));
    const saidFull = log.split('\n').filter((line) => line.includes('storage full at'));
    check('full disk: the log says so once, with where, and no stack trace', saidFull.length === 1 && !/\n\s+at /.test(log), `${saidFull.length} line(s)\n${log.slice(-1500)}`);

    // a backup onto the full disk: it says why and leaves no archive, no work folder and no row
    const backup = spawnSync(path.join(release, 'bin/campus'), ['backup'], { env, encoding: 'utf8' });
    check('full disk: campus backup fails saying "storage full" and where', backup.status === 1 && backup.stderr.includes(`storage full: no space left in ${backupDir}`), backup.stderr);
    check('full disk: the failed backup leaves nothing in the backup folder', readdirSync(backupDir).length === 0, readdirSync(backupDir).join(', '));

    // space comes back: the server is ready again by itself, sign-in and backup work
    rmSync(filler);
    check('full disk: once space is freed, /readyz is green again without a restart', await waitFor(ready, 30));
    check('full disk: and sign-in works again', (await signIn()).body.code === 0);
    const again = spawnSync(path.join(release, 'bin/campus'), ['backup'], { env, encoding: 'utf8' });
    check('full disk: and a backup is made', again.status === 0 && readdirSync(backupDir).some((name) => name.endsWith('.tar.gz')), again.stderr);
  } finally {
    if (server) {
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        /* stopped already */
      }
      await new Promise((resolve) => (server.exitCode !== null ? resolve() : server.once('exit', resolve)));
    }
    spawnSync('umount', [disk]);
    if (existsSync(disk)) rmSync(disk, { recursive: true, force: true });
  }
}
