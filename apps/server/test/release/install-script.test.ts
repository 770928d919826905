import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sm2 } from 'sm-crypto-v2';
import type { PasswordComplexity } from '@campus/contracts';
import { apiPaths, codes, shellVersion } from '@campus/contracts';
import { repoRoot } from '../../src/config.ts';
import { issueLicenceFile } from '../../src/modules/licence/licence-file.ts';
// @ts-expect-error: the release scripts are plain JavaScript without declarations
import { writeSha256Sums } from '../../../../scripts/release/checksums.mjs';
import { call, sha256, signIn, tempDir } from '../support/helpers.ts';
import { edKey, samplePayload } from '../support/licence-helpers.ts';
import { freePort } from '../support/free-port.ts';

/**
 * deploy/release/install.sh as an operator runs it (as root: it creates the campus user and chowns), on a release
 * folder laid out as scripts/release.mjs lays it out: install.sh, bin/, lib/run-node, deploy/, VERSION and
 * SHA256SUMS, with a node/bin/node that runs this checkout's server and campus command through tsx instead of the
 * bundles (npm run release:test installs the real archive). Everything lands under --root.
 */
function makeRelease(dir: string): void {
  const write = (file: string, text: string, mode = 0o644) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text, { mode });
  };
  const copy = (from: string, to: string, mode = 0o644) => write(to, fs.readFileSync(path.join(repoRoot, from), 'utf8'), mode);
  const tsx = pathToFileURL(path.join(repoRoot, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
  write('node/bin/node', `#!/bin/sh\nexec ${process.execPath} --import ${tsx} "$@"\n`, 0o755);
  for (const [bundle, source] of [['campus', 'cli/campus.ts'], ['main', 'main.ts'], ['subapp', 'cli/subapp.ts']] as const) {
    write(`apps/server/dist/${bundle}.mjs`, `import ${JSON.stringify(path.join(repoRoot, 'apps', 'server', 'src', source))};\n`);
  }
  copy('deploy/release/install.sh', 'install.sh', 0o755);
  copy('deploy/release/run-node.sh', 'lib/run-node', 0o755);
  copy('deploy/release/bin/campus', 'bin/campus', 0o755);
  copy('deploy/release/bin/campus-server', 'bin/campus-server', 0o755);
  copy('deploy/release/campus.env.template', 'deploy/campus.env.template');
  for (const unit of ['campus-server.service', 'campus-backup.service', 'campus-backup.timer']) copy(`deploy/systemd/${unit}`, `deploy/systemd/${unit}`);
  copy('deploy/nginx/campus-shell-tls.conf', 'deploy/nginx/campus-shell-tls.conf');
  write('VERSION', `${shellVersion}\n`);
  (writeSha256Sums as (releaseDir: string) => void)(dir);
}

function waitForHealth(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (child.exitCode !== null) return reject(new Error(`the installed server stopped (exit ${child.exitCode}):\n${output()}`));
      fetch(`${url}/healthz`).then(
        (reply) => (reply.ok ? resolve() : retry()),
        () => retry(),
      );
    };
    const retry = () => (Date.now() > deadline ? reject(new Error(`the installed server did not answer:\n${output()}`)) : setTimeout(attempt, 250));
    attempt();
  });
}

describe('install.sh on a fresh server (issue 48 items 1, 2 and 6)', { timeout: 240_000 }, () => {
  const work = tempDir();
  const release = path.join(work, `campus-shell-${shellVersion}`);
  const target = path.join(work, 'root');
  const secrets = path.join(work, 'operator');
  const licence = path.join(secrets, 'customer-10001.lic');
  const cert = path.join(secrets, 'fullchain.pem');
  const key = path.join(secrets, 'privkey.pem');
  const envFile = path.join(target, 'etc/campus/campus.env');
  const passwordFile = path.join(target, 'etc/campus/initial-admin-password');
  const tlsDir = path.join(target, 'etc/campus/tls');
  let port = 0;
  let first: { status: number | null; stdout: string; stderr: string };
  const installFrom = (from: string, ...options: string[]) =>
    spawnSync(path.join(from, 'install.sh'), ['--root', target, '--no-systemd', '--no-nginx-reload', '--server-name', 'campus.test', '--port', String(port), ...options], { encoding: 'utf8' });
  const install = (...options: string[]) => installFrom(release, ...options);

  beforeAll(async () => {
    // the service user runs the release from inside the test's folder, as from /opt
    fs.chmodSync(work, 0o755);
    makeRelease(release);
    // what the vendor and the certificate authority gave the operator, in a folder the service user may not read
    fs.mkdirSync(secrets, { mode: 0o700 });
    fs.writeFileSync(licence, issueLicenceFile(samplePayload({ code: 'VENDOR-10001', customerName: 'North Campus', endTime: Date.UTC(2099, 11, 31) }), edKey), { mode: 0o600 });
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=campus.test', '-keyout', key, '-out', cert], { encoding: 'utf8' });
    expect(made.status, made.stderr).toBe(0);
    // Debian's nginx package: its default site enabled
    fs.mkdirSync(path.join(target, 'etc/nginx/sites-available'), { recursive: true });
    fs.mkdirSync(path.join(target, 'etc/nginx/sites-enabled'), { recursive: true });
    fs.writeFileSync(path.join(target, 'etc/nginx/sites-available/default'), 'server { listen 80 default_server; root /var/www/html; }\n');
    fs.symlinkSync('/etc/nginx/sites-available/default', path.join(target, 'etc/nginx/sites-enabled/default'));
    // the service user: made here when missing, tried again while the other runtime's run of this file (npm test
    // --with-node24) holds /etc/passwd's lock for the same (the installer then finds it; release:test sees it made)
    for (let attempt = 0; spawnSync('id', ['campus']).status !== 0; attempt += 1) {
      if (attempt >= 20) throw new Error('the user campus could not be created');
      if (spawnSync('useradd', ['--system', '--user-group', '--no-create-home', '--home-dir', '/var/lib/campus', '--shell', '/usr/sbin/nologin', 'campus']).status !== 0) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    port = await freePort();
    first = install('--licence', licence, '--licence-trust', path.join(repoRoot, 'apps/server/licence-keys/test-trust.json'), '--tls-cert', cert, '--tls-key', key);
  });
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it('installs offline with the licence, the vendor keys and the certificate given', () => {
    expect(first.status, `${first.stdout}\n${first.stderr}`).toBe(0);
    expect(first.stdout).toContain('==> installing the licence');
    expect(first.stdout).toContain('Licence VENDOR-10001 is in effect.');
    const env = fs.readFileSync(envFile, 'utf8');
    expect(env).toContain(`\nLICENCE_TRUST_FILE=${path.join(target, 'etc/campus/licence-trust.json')}\n`);
  });

  it('a release is a private deployment: the environment file sets PRIVATE_DEPLOYMENT=on', () => {
    expect(fs.readFileSync(envFile, 'utf8')).toMatch(/^PRIVATE_DEPLOYMENT=on$/m);
  });

  it('copies the certificate and key to /etc/campus/tls, where the nginx site reads them', () => {
    expect(fs.readFileSync(path.join(tlsDir, 'campus.crt'), 'utf8')).toBe(fs.readFileSync(cert, 'utf8'));
    expect(fs.readFileSync(path.join(tlsDir, 'campus.key'), 'utf8')).toBe(fs.readFileSync(key, 'utf8'));
    const keyStat = fs.statSync(path.join(tlsDir, 'campus.key'));
    expect([keyStat.mode & 0o777, keyStat.uid]).toEqual([0o600, 0]);
    expect(fs.statSync(tlsDir).mode & 0o777).toBe(0o700);
    const site = fs.readFileSync(path.join(target, 'etc/nginx/conf.d/campus-shell.conf'), 'utf8');
    expect(site).toContain(`ssl_certificate ${path.join(tlsDir, 'campus.crt')};`);
    expect(site).toContain(`ssl_certificate_key ${path.join(tlsDir, 'campus.key')};`);
  });

  it('links /usr/local/bin/campus to the release in use, and the link runs it', () => {
    const link = path.join(target, 'usr/local/bin/campus');
    expect(fs.readlinkSync(link)).toBe(path.join(target, 'opt/campus/current/bin/campus'));
    const version = spawnSync(link, ['version'], { encoding: 'utf8', env: { PATH: process.env.PATH, CAMPUS_ENV_FILE: envFile } });
    expect(version.stdout, version.stderr).toContain(`campus-shell ${shellVersion}`);
    const list = spawnSync(link, ['licence', 'list'], { encoding: 'utf8', env: { PATH: process.env.PATH, CAMPUS_ENV_FILE: envFile } });
    expect(list.stdout, list.stderr).toContain('Customer number 10001,');
  });

  it('disables Debian\'s default nginx site, saying how to bring it back', () => {
    expect(fs.existsSync(path.join(target, 'etc/nginx/sites-enabled/default'))).toBe(false);
    expect(fs.existsSync(path.join(target, 'etc/nginx/sites-available/default'))).toBe(true);
    expect(first.stdout).toContain("disabled Debian's default nginx site");
    expect(first.stdout).toContain('ln -s /etc/nginx/sites-available/default /etc/nginx/sites-enabled/default');
  });

  it('with --root its closing lines name the paths under the root', () => {
    const closing = first.stdout.slice(first.stdout.lastIndexOf('Installed campus shell'));
    expect(closing).toContain(`Settings: ${envFile}  Data: ${path.join(target, 'var/lib/campus')}`);
    expect(closing).toContain(`The command: ${path.join(target, 'usr/local/bin/campus')}`);
    expect(closing).toContain(`First sign-in: https://campus.test/login with the one-time password in ${passwordFile}; change it there.`);
    expect(first.stdout).toContain(`the one-time administrator password is in ${passwordFile} (root only)`);
  });

  it('the first sign-in goes as documented: the one-time password is changed, and Backup Logs answer', async () => {
    // sign-in without the image code (a production setting the test turns off, as the release test does)
    fs.appendFileSync(envFile, '\nIMAGE_CODE=off\n');
    const server = spawn(path.join(target, 'opt/campus/current/bin/campus-server'), [], { env: { PATH: process.env.PATH, CAMPUS_ENV_FILE: envFile }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const url = { url: `http://127.0.0.1:${port}` };
    try {
      await waitForHealth(url.url, server, () => output);
      const [, tenant, account, password] = /tenant (\S+)\naccount (\S+)\npassword (\S+)/.exec(fs.readFileSync(passwordFile, 'utf8')) ?? [];
      const token = await signIn(url, account ?? '', password ?? '', tenant);
      const complexity = await call<PasswordComplexity>(url, 'GET', apiPaths.passwordComplexity, undefined, { token });
      const next = 'Campus#First1';
      const changed = await call(url, 'POST', apiPaths.changePassword, { oprtPwd: sha256(password ?? ''), oprtNewPwd: sha256(next), sealedNewPwd: sm2.doEncrypt(next, complexity.body.data.sealKey, 1) }, { token, language: 'en-US' });
      expect(changed.body.code, changed.body.msg).toBe(codes.ok);
      const admin = await signIn(url, account ?? '', next, tenant);
      const backupLogs = await call(url, 'POST', apiPaths.backupLogSearch, { pageInfo: { index: 1, size: 10 } }, { token: admin, language: 'en-US' });
      expect([backupLogs.status, backupLogs.body.code]).toEqual([200, codes.ok]);
      // the journal's lines are all JSON, the start-up lines too
      const lines = output.trim().split('\n');
      expect(lines.filter((line) => !line.startsWith('{'))).toEqual([]);
      expect(lines.some((line) => (JSON.parse(line) as { msg: string }).msg.startsWith('Campus shell server: '))).toBe(true);
    } finally {
      server.kill('SIGTERM');
      await new Promise((resolve) => (server.exitCode !== null ? resolve(null) : server.once('exit', resolve)));
    }
  });

  it('installed again without --tls-cert, it keeps the certificate it copied', () => {
    const again = install();
    expect(again.status, `${again.stdout}\n${again.stderr}`).toBe(0);
    expect(again.stdout).toContain(`kept the certificate installed before: ${path.join(tlsDir, 'campus.crt')}`);
    expect(again.stdout).not.toContain('SELF-SIGNED');
    expect(fs.readFileSync(path.join(target, 'etc/nginx/conf.d/campus-shell.conf'), 'utf8')).toContain(`ssl_certificate ${path.join(tlsDir, 'campus.crt')};`);
    expect(again.stdout).toContain(`kept ${passwordFile} (it exists)`);
    // the same build over itself is a re-run (issue 48 item 3)
    expect(again.stdout).toContain('the same build is installed there: installing it again');
  });

  it('refuses another build of the same version over the installed one, changing nothing (issue 48 item 3)', () => {
    const installed = path.join(target, 'opt/campus/releases', shellVersion);
    const other = path.join(work, 'other-build', `campus-shell-${shellVersion}`);
    makeRelease(other);
    // another commit's build that calls itself the same: one file differs
    fs.appendFileSync(path.join(other, 'deploy/campus.env.template'), '\n# a later build\n');
    (writeSha256Sums as (releaseDir: string) => void)(other);
    const sumsBefore = fs.readFileSync(path.join(installed, 'SHA256SUMS'), 'utf8');
    const envBefore = fs.readFileSync(envFile, 'utf8');
    const currentBefore = fs.readlinkSync(path.join(target, 'opt/campus/current'));
    const refused = installFrom(other);
    expect(refused.status, refused.stdout).toBe(1);
    expect(refused.stderr).toContain(`install.sh: FAILED at: comparing with the release already installed in ${installed}: ${installed} holds another build that also calls itself ${shellVersion}`);
    expect(refused.stderr).toContain('Nothing was changed.');
    expect(refused.stdout).not.toContain('==> creating the service user');
    expect(fs.readFileSync(path.join(installed, 'SHA256SUMS'), 'utf8')).toBe(sumsBefore);
    expect(fs.readFileSync(path.join(installed, 'deploy/campus.env.template'), 'utf8')).not.toContain('a later build');
    expect(fs.readdirSync(path.join(target, 'opt/campus/releases'))).toEqual([shellVersion]);
    expect(fs.readlinkSync(path.join(target, 'opt/campus/current'))).toBe(currentBefore);
    expect(fs.readFileSync(envFile, 'utf8')).toBe(envBefore);
  });

  it('a licence that does not verify stops the installer with its reason and how to go on', () => {
    const tampered = path.join(secrets, 'tampered.lic');
    fs.copyFileSync(path.join(repoRoot, 'docs/licences/tampered-example.lic'), tampered);
    const refused = install('--licence', tampered);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('tampered.lic was not installed: Authorization tampered');
    expect(refused.stderr).toContain('install.sh: FAILED at: installing the licence');
    expect(refused.stderr).toContain('add it later: campus licence add FILE');
  });
});
