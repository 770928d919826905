// `npm run release:test:arm64`: the linux-arm64 archive works, on this x64 machine, under QEMU's user-mode emulator
// (Debian's qemu-user-static with the arm64 C libraries of libc6-arm64-cross). It builds the archive, checks its
// .sha256 and that its Node is an arm64 program, then, with no network (unshare -n), runs the release's own Node on
// its bundled server: a production first start (migrations, the administrator's argon2 hash), /readyz, /login, an
// image code drawn by the canvas addon, and data made and checked through the API (sign-in, password change,
// licence). What it cannot show is speed on real arm64 hardware: the emulator is many times slower.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { issueTestLicence, repoTool } from './release/repo-tools.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const self = fileURLToPath(import.meta.url);
const qemu = '/usr/bin/qemu-aarch64-static';
const armLibraries = '/usr/aarch64-linux-gnu';
const port = 6317;
const base = `http://127.0.0.1:${port}`;

let failures = 0;
function check(what, ok, detail = '') {
  console.log(`${ok ? 'ok  ' : 'FAIL'}  ${what}${!ok && detail ? `: ${detail}` : ''}`);
  if (!ok) failures += 1;
}
function stop(message) {
  console.error(`release-arm64-test: ${message}`);
  process.exit(1);
}

const insideIndex = process.argv.indexOf('--inside');
if (insideIndex > 0) {
  await inside(process.argv[insideIndex + 1]);
  process.exit(failures > 0 ? 1 : 0);
}

if (process.getuid?.() !== 0) stop('run as root (it makes a network namespace)');
if (!existsSync(qemu) || !existsSync(path.join(armLibraries, 'lib', 'ld-linux-aarch64.so.1'))) {
  stop(`needs ${qemu} and ${armLibraries} (apt-get install qemu-user-static libc6-arm64-cross libstdc++6-arm64-cross; scripts/system-deps.mjs installs them)`);
}
const work = mkdtempSync(path.join(os.tmpdir(), 'campus-release-arm64-'));
chmodSync(work, 0o755);
try {
  const built = existsSync(path.join(root, 'apps/shell/dist/index.html')) && existsSync(path.join(root, 'dist/card-issuer/card-issuer-win-x64.zip'));
  execFileSync(process.execPath, [path.join(root, 'scripts/release.mjs'), '--platform', 'linux-arm64', '--out', path.join(work, 'out'), ...(built ? ['--no-build'] : [])], { stdio: 'inherit' });
  const archiveName = readdirSync(path.join(work, 'out')).find((file) => file.endsWith('-linux-arm64.tar.gz'));
  if (!archiveName) stop('scripts/release.mjs made no linux-arm64 archive');
  const archive = path.join(work, 'out', archiveName);
  const sum = readFileSync(`${archive}.sha256`, 'utf8').split(/\s+/)[0];
  check('the arm64 archive matches its .sha256', createHash('sha256').update(readFileSync(archive)).digest('hex') === sum);
  execFileSync('tar', ['-xzf', archive, '-C', work]);
  const release = path.join(work, archiveName.replace(/-linux-arm64\.tar\.gz$/, ''));
  const node = path.join(release, 'node', 'bin', 'node');
  const header = readFileSync(node).subarray(0, 20);
  // ELF, and e_machine 0xB7: AArch64
  check('its Node is an arm64 program', header.subarray(0, 4).toString('latin1') === '\x7fELF' && header.readUInt16LE(18) === 0xb7);
  console.log('\n-- in a network namespace with loopback only (unshare -n), under qemu-aarch64');
  const result = spawnSync('unshare', ['-n', process.execPath, self, '--inside', release], { stdio: 'inherit' });
  if (result.status !== 0) failures += 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (failures > 0) stop(`${failures} check(s) failed`);
console.log('\nrelease arm64 test: all checks passed');

async function inside(release) {
  execFileSync('ip', ['link', 'set', 'lo', 'up']);
  const emulated = (args, env = {}) => ({ command: qemu, args: [path.join(release, 'node', 'bin', 'node'), ...args], env: { PATH: process.env.PATH, QEMU_LD_PREFIX: armLibraries, ...env } });
  const version = emulated([path.join(release, 'apps/server/dist/campus.mjs'), 'version']);
  const said = spawnSync(version.command, version.args, { env: version.env, encoding: 'utf8' });
  check('campus version runs on the arm64 Node', said.status === 0 && /Node\.js v24\.\d+\.\d+ on linux-arm64/.test(said.stdout), said.stdout + said.stderr);

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'campus-arm64-data-'));
  const server = emulated([path.join(release, 'apps/server/dist/main.mjs')], {
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    IMAGE_CODE: 'off',
    CUSTOMER_NO: '10001',
    LICENCE_TRUST_FILE: path.join(root, 'apps/server/licence-keys/test-trust.json'),
  });
  const child = spawn(server.command, server.args, { cwd: release, env: server.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (chunk) => { log += chunk; });
  child.stderr.on('data', (chunk) => { log += chunk; });
  try {
    const started = Date.now();
    let ready = false;
    while (!ready && Date.now() - started < 180_000 && child.exitCode === null) {
      ready = await fetch(`${base}/readyz`).then((reply) => reply.ok, () => false);
      if (!ready) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    check(`the server starts and is ready (${Math.round((Date.now() - started) / 1000)} s under the emulator)`, ready, log.slice(-2000));
    if (!ready) return;
    check('its log names the migrations it applied', /"msg":"database migration applied".*"migration":"0001_initial"/.test(log));
    const login = await fetch(`${base}/login`);
    check('/login answers the shell', login.status === 200 && (await login.text()).includes('<div id="root">'));
    const image = await (await fetch(`${base}/auth/api/verifyCode/getimage?verifyKey=arm64check01`)).json();
    const png = Buffer.from(String(image.data?.image ?? '').replace(/^data:image\/png;base64,/, ''), 'base64');
    check('an image code is drawn (the canvas addon)', png.subarray(1, 4).toString('latin1') === 'PNG' && png.length > 500);

    const passwordFile = path.join(dataDir, 'initial-admin-password');
    const text = existsSync(passwordFile) ? readFileSync(passwordFile, 'utf8') : '';
    const admin = /tenant (\S+)\s+account (\S+)\s+password (\S+)/.exec(text);
    check('the first start wrote the one-time password file', admin !== null);
    if (!admin) return;
    const tool = (args) => repoTool(root, args);
    const licence = path.join(dataDir, 'arm64.lic');
    const issued = issueTestLicence(root, { out: licence, code: 'ARM64-0001', customerName: 'Arm64 Test Campus' });
    check('a licence is issued for it', issued.status === 0, issued.stderr);
    const expectation = path.join(dataDir, 'expectation.json');
    const made = tool([path.join(root, 'e2e/upgrade/cli.ts'), 'make', '--base-url', base, '--admin', `${admin[1]}:${admin[2]}:${admin[3]}`, '--licence', licence, '--out', expectation]);
    check('sign-in, the forced password change (argon2) and the licence work', made.status === 0, made.stdout + made.stderr);
    const checked = tool([path.join(root, 'e2e/upgrade/cli.ts'), 'check', '--base-url', base, '--expectation', expectation]);
    check('the changed password signs in and the licence is in effect', checked.status === 0, checked.stdout + checked.stderr);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
