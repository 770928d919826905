// `npm run release:test [-- --archive FILE]` (as root): proves a release installs and runs with no network.
// Builds the archive (or takes one), unpacks it, and in a network namespace with nothing but loopback
// (`unshare -n`): runs install.sh --root <tmp> --no-systemd, starts the server the way campus-server.service does
// (bin/campus-server with the installed environment file, as the campus user), runs nginx with the installed TLS
// site, and checks over HTTPS: /login serves the shell, HTTP redirects to HTTPS, HSTS, and a sign-in with the
// one-time password from the root-only file. The install is an operator's first one: with the customer's licence,
// the vendor's keys and a certificate (--licence, --licence-trust, --tls-cert/--tls-key) and Debian's default nginx
// site enabled; it checks the licence in effect, the copies in /etc/campus/tls, /usr/local/bin/campus, the default
// site disabled and the closing lines' paths under --root. Then, with the password changed through the API under that
// licence (e2e/upgrade/upgrade-data.ts): a `campus backup` while users sign in, listed by About System's Backup Logs over
// HTTPS; a second installation from the same archive restored from that backup, where every sign-in, the licence
// and the operation log are back. Then the file modes, a second install over the first that keeps what it must,
// and that no process of the release loads tsx or better-sqlite3. promtool checks its /metrics and alert rules.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, writeFileSync, appendFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildVersion } from './release/build-version.mjs';
import { fullDiskChecks } from './release/full-disk-checks.mjs';
import { releaseArchive } from './release/reused-archive.mjs';
import { issueTestLicence, repoTool as repoToolOf } from './release/repo-tools.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const self = fileURLToPath(import.meta.url);
const httpsPort = 443;
const httpPort = 80;
const serverPort = 6307;
const serverName = 'campus.test';

let failures = 0;
function check(what, ok, detail = '') {
  console.log(`${ok ? 'ok  ' : 'FAIL'}  ${what}${!ok && detail ? `: ${detail}` : ''}`);
  if (!ok) failures += 1;
}
function stop(message) {
  console.error(`release-test: ${message}`);
  process.exit(1);
}

const { values: options } = parseArgs({ options: { archive: { type: 'string' }, inside: { type: 'string' }, keep: { type: 'boolean', default: false } } });

if (options.inside) {
  await inside(options.inside);
  process.exit(failures > 0 ? 1 : 0);
}
else await outside();

/** The release's /metrics and the monitoring files it ships (deploy/monitoring), as Prometheus's promtool reads them. */
function monitoringChecks(release, metricsText) {
  const promtool = process.env.PROMTOOL_PATH ?? '/usr/bin/promtool';
  if (!existsSync(promtool)) {
    check('promtool is installed (apt-get install -y prometheus)', false, `${promtool} is missing`);
    return;
  }
  const metrics = spawnSync(promtool, ['check', 'metrics'], { input: metricsText, encoding: 'utf8' });
  check('promtool check metrics accepts the release\'s /metrics', metrics.status === 0 && /^campus_sign_in_failures_total\{kind="password"\} /m.test(metricsText), `${metrics.stdout}${metrics.stderr}${metricsText.slice(0, 200)}`);
  const rules = spawnSync(promtool, ['check', 'rules', path.join(release, 'deploy/monitoring/campus-alerts.yml')], { encoding: 'utf8' });
  check('the release ships the alert rules, and promtool check rules accepts them', rules.status === 0, `${rules.stdout}${rules.stderr}`);
  let dashboard = null;
  try {
    dashboard = JSON.parse(readFileSync(path.join(release, 'deploy/monitoring/campus-dashboard.json'), 'utf8'));
  } catch {
    // reported below
  }
  check('the release ships the Grafana dashboard', Array.isArray(dashboard?.panels) && dashboard.panels.length > 0);
}

async function outside() {
  if (process.getuid?.() !== 0) stop('run as root (it creates the campus user and a network namespace)');
  for (const tool of ['unshare', 'ip', 'nginx', 'curl', 'openssl']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) stop(`${tool} is needed and not installed`);
  }
  const work = mkdtempSync(path.join(os.tmpdir(), 'campus-release-test-'));
  // the campus user runs the installed release from inside it, as it would from /opt
  chmodSync(work, 0o755);
  let archive = options.archive && path.resolve(options.archive);
  if (!archive) {
    // built here, or the one an earlier test built from the same clean commit (scripts/release/reused-archive.mjs)
    ({ archive } = releaseArchive(root, { outDir: path.join(work, 'out'), who: 'release-test' }));
    check('the archive is named by this build\'s version', path.basename(archive) === `campus-shell-${buildVersion(root)}-linux-x64.tar.gz`, path.basename(archive));
  }
  if (!existsSync(archive)) stop(`no archive ${archive}`);
  const [sum] = readFileSync(`${archive}.sha256`, 'utf8').split(/\s+/);
  check('the archive matches its .sha256', createHash('sha256').update(readFileSync(archive)).digest('hex') === sum);
  mkdirp(path.join(work, 'unpacked'));
  execFileSync('tar', ['-xzf', archive, '-C', path.join(work, 'unpacked')]);
  const tops = readdirSync(path.join(work, 'unpacked'));
  check('the archive holds one top folder campus-shell-<version>', tops.length === 1 && /^campus-shell-\d/.test(tops[0]), tops.join(', '));

  const installer = path.join(work, 'unpacked', tops[0], 'install.sh');
  const help = spawnSync(installer, ['--help'], { encoding: 'utf8' });
  check('install.sh --help explains the options', help.status === 0 && help.stdout.includes('--tls-cert') && help.stdout.includes('--root'));
  const wrong = spawnSync(installer, ['--no-such-option'], { encoding: 'utf8' });
  check('install.sh refuses an unknown option and says which', wrong.status !== 0 && wrong.stderr.includes('unknown option --no-such-option'), wrong.stderr);

  console.log('\n-- in a network namespace with loopback only (unshare -n)');
  const result = spawnSync('unshare', ['-n', process.execPath, self, '--inside', work], { stdio: 'inherit' });
  if (result.status !== 0) failures += 1;
  if (!options.keep) rmSync(work, { recursive: true, force: true });
  else console.log(`kept ${work}`);
  if (failures > 0) stop(`${failures} check(s) failed`);
  console.log('\nrelease test: all checks passed');
}

function mkdirp(dir) {
  execFileSync('mkdir', ['-p', dir]);
}

async function inside(work) {
  execFileSync('ip', ['link', 'set', 'lo', 'up']);
  const offline = spawnSync('curl', ['-sS', '--max-time', '5', 'https://registry.npmjs.org/'], { encoding: 'utf8' });
  check('no network in the namespace (the npm registry cannot be reached)', offline.status !== 0);

  const release = path.join(work, 'unpacked', readdirSync(path.join(work, 'unpacked'))[0]);
  const target = path.join(work, 'root');
  const started = [];
  try {
    // settings left in the operator's shell must not reach the installed commands: they read the environment file only
    const strayShell = { ...process.env, DATABASE_URL: 'postgres://campus@127.0.0.1:1/not-this-one', DATA_DIR: '/nonexistent/stray' };
    const install = (...options) => spawnSync(path.join(release, 'install.sh'), ['--root', target, '--no-systemd', '--no-nginx-reload', '--server-name', serverName, '--port', String(serverPort), ...options], { encoding: 'utf8', env: strayShell });
    // what the operator brings (issue 48): the customer's licence and the vendor's keys (here the repository's TEST
    // key), a certificate, in a folder of root's only; and Debian's nginx with its default site enabled
    const operator = path.join(work, 'operator');
    execFileSync('mkdir', ['-m', '0700', operator]);
    const customerLicence = path.join(operator, 'customer-10001.lic');
    const vendorKeys = path.join(operator, 'vendor-keys.json');
    const issuedFirst = issueTestLicence(root, { out: customerLicence, code: 'CUSTOMER-0001', customerName: 'Release Test Campus' });
    check('the customer\'s licence is issued', issuedFirst.status === 0, issuedFirst.stderr);
    writeFileSync(vendorKeys, readFileSync(path.join(root, 'apps/server/licence-keys/test-trust.json')), { mode: 0o600 });
    const siteCert = path.join(operator, 'fullchain.pem');
    const siteKey = path.join(operator, 'privkey.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', `/CN=${serverName}`, '-addext', `subjectAltName=DNS:${serverName}`, '-keyout', siteKey, '-out', siteCert], { stdio: 'ignore' });
    mkdirp(path.join(target, 'etc/nginx/sites-available'));
    mkdirp(path.join(target, 'etc/nginx/sites-enabled'));
    writeFileSync(path.join(target, 'etc/nginx/sites-available/default'), 'server { listen 80 default_server; }\n');
    execFileSync('ln', ['-s', '/etc/nginx/sites-available/default', path.join(target, 'etc/nginx/sites-enabled/default')]);
    const first = install('--licence', customerLicence, '--licence-trust', vendorKeys, '--tls-cert', siteCert, '--tls-key', siteKey);
    process.stdout.write(first.stdout.replace(/^/gm, '    | '));
    process.stderr.write(first.stderr.replace(/^/gm, '    | '));
    check('install.sh --root --no-systemd --licence --licence-trust --tls-cert --tls-key succeeds offline, with a stray DATABASE_URL and DATA_DIR in its shell', first.status === 0, `exit ${first.status}`);
    if (first.status !== 0) return;
    check('install.sh --licence put the customer\'s licence in effect', /^ {4}Licence CUSTOMER-0001 is in effect\.$/m.test(first.stdout));
    const commandLink = path.join(target, 'usr/local/bin/campus');
    const linkedVersion = spawnSync(commandLink, ['version'], { encoding: 'utf8', env: { PATH: process.env.PATH, CAMPUS_ENV_FILE: path.join(target, 'etc/campus/campus.env') } });
    check('/usr/local/bin/campus links the release in use and runs it', existsSync(commandLink) && readlinkSync(commandLink) === path.join(target, 'opt/campus/current/bin/campus') && linkedVersion.stdout.startsWith('campus-shell '), linkedVersion.stderr);
    // every build its own version (issue 48 item 3): the same in VERSION, the folder, campus version and the CHANGELOG
    const builtVersion = readFileSync(path.join(release, 'VERSION'), 'utf8').trim();
    check('the build names its commit in its version (<line>+<date>.<hash>, .dirty or +nogit said so)', /^\d+(\.\d+){3}\+(\d{8}\.[0-9a-f]{7}(\.dirty)?|nogit)$/.test(builtVersion) && path.basename(release) === `campus-shell-${builtVersion}`, builtVersion);
    check('campus version says the build\'s version', linkedVersion.stdout.split('\n')[0] === `campus-shell ${builtVersion}`, linkedVersion.stdout);
    check('the release\'s CHANGELOG heads its newest section with the build\'s version', readFileSync(path.join(release, 'CHANGELOG.md'), 'utf8').includes(`\n## ${builtVersion}\n`) || !readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8').includes('\n## Unreleased\n'));
    check('Debian\'s default nginx site is disabled, saying so', !existsSync(path.join(target, 'etc/nginx/sites-enabled/default')) && first.stdout.includes("disabled Debian's default nginx site"));
    check('the closing lines name the paths under --root', first.stdout.includes(`Settings: ${path.join(target, 'etc/campus/campus.env')}  Data: ${path.join(target, 'var/lib/campus')}`) && first.stdout.includes(`one-time password in ${path.join(target, 'etc/campus/initial-admin-password')}`));
    const envFile = path.join(target, 'etc/campus/campus.env');
    const passwordFile = path.join(target, 'etc/campus/initial-admin-password');
    const dataDir = path.join(target, 'var/lib/campus');
    const backupDir = path.join(target, 'var/backups/campus');
    const campusUid = Number(execFileSync('id', ['-u', 'campus'], { encoding: 'utf8' }).trim());
    const campusGid = Number(execFileSync('id', ['-g', 'campus'], { encoding: 'utf8' }).trim());
    const mode = (file) => statSync(file).mode & 0o777;
    check('install.sh never prints the password', !/password\s+\S{8,}/i.test(first.stdout.replace(/password is in \S+/g, '')));
    check('current points at the release', readlinkSync(path.join(target, 'opt/campus/current')) === `releases/${readFileSync(path.join(release, 'VERSION'), 'utf8').trim()}`);
    check('env file 0640 root:campus', mode(envFile) === 0o640 && statSync(envFile).uid === 0 && statSync(envFile).gid === campusGid, mode(envFile).toString(8));
    check('data folder 0700 campus', mode(dataDir) === 0o700 && statSync(dataDir).uid === campusUid, mode(dataDir).toString(8));
    check('campus init made the database in the installed data folder, not where the shell pointed', existsSync(path.join(dataDir, 'campus.db')) && !existsSync('/nonexistent/stray'));
    check('backup folder 0700 campus', mode(backupDir) === 0o700 && statSync(backupDir).uid === campusUid, mode(backupDir).toString(8));
    const tlsDir = path.join(target, 'etc/campus/tls');
    check('TLS folder 0700 root (docs/operating.md "Files")', mode(tlsDir) === 0o700 && statSync(tlsDir).uid === 0, mode(tlsDir).toString(8));
    check('--tls-cert/--tls-key are copied into it (key 0600) and the site reads the copies', readFileSync(path.join(tlsDir, 'campus.crt'), 'utf8') === readFileSync(siteCert, 'utf8') && readFileSync(path.join(tlsDir, 'campus.key'), 'utf8') === readFileSync(siteKey, 'utf8') && mode(path.join(tlsDir, 'campus.key')) === 0o600 && readFileSync(path.join(target, 'etc/nginx/conf.d/campus-shell.conf'), 'utf8').includes(`ssl_certificate ${path.join(tlsDir, 'campus.crt')};`));
    const site = readFileSync(path.join(target, 'etc/nginx/conf.d/campus-shell.conf'), 'utf8');
    check('the TLS site offers only forward-secret AEAD suites under TLS 1.2, no session tickets', /^\s*ssl_ciphers ECDHE-[\w:-]+;$/m.test(site) && !/^\s*ssl_ciphers .*(CBC|-SHA;|-SHA:|CAMELLIA|ARIA)/m.test(site) && /^\s*ssl_session_tickets off;$/m.test(site));
    check('no OCSP stapling for the self-signed certificate (no chain)', !/^\s*ssl_stapling on;$/m.test(site) && /^\s*#stapling ssl_stapling on;$/m.test(site));
    const hasPassword = existsSync(passwordFile);
    check('install.sh wrote the one-time administrator password file (campus init on a new database)', hasPassword, 'missing: `campus init` printed no credentials');
    if (hasPassword) check('password file 0600 root:root', mode(passwordFile) === 0o600 && statSync(passwordFile).uid === 0 && statSync(passwordFile).gid === 0, mode(passwordFile).toString(8));
    check('the systemd units are installed', ['campus-server.service', 'campus-backup.service', 'campus-backup.timer'].every((unit) => existsSync(path.join(target, 'etc/systemd/system', unit))));
    const unit = readFileSync(path.join(target, 'etc/systemd/system/campus-server.service'), 'utf8');
    const execStart = /^ExecStart=(.+)$/m.exec(unit)?.[1];
    check('campus-server.service runs bin/campus-server as campus with the env file', execStart === path.join(target, 'opt/campus/current/bin/campus-server') && /^User=campus$/m.test(unit) && unit.includes(`EnvironmentFile=${envFile}`));

    const credentials = hasPassword ? readFileSync(passwordFile, 'utf8') : '';
    const match = /tenant\s+(\S+)\s+account\s+(\S+)\s+password\s+(\S+)/.exec(credentials);
    if (hasPassword) check('the password file holds the administrator\'s credentials', match !== null, 'expected "tenant <code>  account <name>  password <password>"');

    // the test signs in without the image code (a production setting: IMAGE_CODE, apps/server/CONFIG.md). The
    // template makes it a private deployment (Backup Logs) and install.sh named the vendor keys. Its users all sign
    // in from one address, four at a time all along a backup: the default of 60 sign-ins a minute per address
    // refused one of them whenever the backup took a little longer, and then the next step's sign-in
    check('the environment template makes a private deployment (PRIVATE_DEPLOYMENT=on)', /^PRIVATE_DEPLOYMENT=on$/m.test(readFileSync(envFile, 'utf8')));
    const testSettings = '\n# release test\nIMAGE_CODE=off\nRATE_LIMIT_PER_MINUTE=10000\nMETRICS=on\n';
    appendFileSync(envFile, testSettings);
    const envBefore = readFileSync(envFile, 'utf8');

    // as campus-server.service: its ExecStart with its EnvironmentFile, as its User (the wrapper drops from root)
    const server = spawn(execStart, [], { env: { PATH: process.env.PATH, CAMPUS_ENV_FILE: envFile }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    started.push(server);
    let serverLog = '';
    server.stdout.on('data', (chunk) => { serverLog += chunk; });
    server.stderr.on('data', (chunk) => { serverLog += chunk; });
    const up = await waitFor(async () => (await fetch(`http://127.0.0.1:${serverPort}/healthz`)).ok);
    check('the server starts from the release', up, serverLog.slice(-2000));
    if (!up) return;
    // the wrapper execs node (setpriv execs too): the started process is the server itself
    const serverUid = Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1]);
    check('the server runs as campus', serverUid === campusUid, String(serverUid));

    const nginxDir = path.join(work, 'nginx');
    mkdirp(nginxDir);
    writeFileSync(path.join(nginxDir, 'nginx.conf'), `pid ${nginxDir}/nginx.pid;\nerror_log ${nginxDir}/error.log;\nevents {}\nhttp {\n  client_body_temp_path ${nginxDir}/body;\n  proxy_temp_path ${nginxDir}/proxy;\n  include ${path.join(target, 'etc/nginx/conf.d/campus-shell.conf')};\n}\n`);
    const nginxTest = spawnSync('nginx', ['-p', nginxDir, '-c', path.join(nginxDir, 'nginx.conf'), '-t'], { encoding: 'utf8' });
    check('nginx -t accepts the installed TLS site', nginxTest.status === 0, nginxTest.stderr);
    const nginx = spawn('nginx', ['-p', nginxDir, '-c', path.join(nginxDir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: 'inherit' });
    started.push(nginx);
    const cert = path.join(target, 'etc/campus/tls/campus.crt');
    const curl = (...args) => spawnSync('curl', ['-sS', '--max-time', '10', '--cacert', cert, '--resolve', `${serverName}:${httpsPort}:127.0.0.1`, ...args], { encoding: 'utf8' });
    const base = `https://${serverName}:${httpsPort}`;
    await waitFor(async () => curl('-o', '/dev/null', `${base}/login`).status === 0);

    const login = curl('-i', `${base}/login`);
    check('GET https /login serves the shell (verified against the installed certificate)', /^HTTP\/\S+ 200/m.test(login.stdout) && /<div id="root"|<script/i.test(login.stdout), login.stderr || login.stdout.slice(0, 300));
    const checked = JSON.parse(curl(`${base}/iot-login/api/v1.0/Device/CheckVersion`).stdout || '{}');
    check('the server tells the shell (About System) the build\'s version', checked.data?.version === readFileSync(path.join(release, 'VERSION'), 'utf8').trim(), JSON.stringify(checked));
    check('HTTPS answers carry HSTS', /^strict-transport-security: max-age=\d+/im.test(login.stdout));
    check('HSTS is sent once', (login.stdout.match(/^strict-transport-security:/gim) ?? []).length === 1);
    // a team writing a sub-system gets the SDK from the customer's server
    const tools = curl(`${base}/tools/tools.json`);
    let listed = [];
    try {
      listed = JSON.parse(tools.stdout);
    } catch {
      // reported by the check below
    }
    const sdkPackage = Array.isArray(listed) ? listed.find((tool) => /^campus-subapp-sdk-\d+\.\d+\.\d+\.tgz$/.test(tool.fileName)) : undefined;
    const sdkBytes = sdkPackage ? spawnSync('curl', ['-sS', '--max-time', '10', '--cacert', cert, '--resolve', `${serverName}:${httpsPort}:127.0.0.1`, `${base}${sdkPackage.url}`]).stdout : Buffer.alloc(0);
    check('/tools offers the sub-app SDK package of the release, and it downloads', sdkBytes.length > 1000 && sdkBytes[0] === 0x1f && sdkBytes[1] === 0x8b, tools.stdout.slice(0, 300));
    const plain = spawnSync('curl', ['-sS', '-i', '--max-time', '10', `http://127.0.0.1:${httpPort}/login`], { encoding: 'utf8' });
    check('HTTP redirects to HTTPS', /^HTTP\/\S+ 301/m.test(plain.stdout) && /^location: https:\/\//im.test(plain.stdout), plain.stdout.slice(0, 300));

    if (match) {
      const [, tenantCode, account, password] = match;
      const body = JSON.stringify({ user: { account, password: createHash('sha256').update(password).digest('hex'), tenantCode } });
      const signIn = curl('-X', 'POST', '-H', 'content-type: application/json', '--data', body, `${base}/user/api/v1.0/account/weblogin`);
      let reply = {};
      try {
        reply = JSON.parse(signIn.stdout);
      } catch {
        /* shown below */
      }
      check('sign-in over HTTPS with the one-time password works', reply.code === 0 && typeof reply.data?.loginInfo?.token === 'string', `${reply.code} ${reply.msg ?? signIn.stdout.slice(0, 200)}`);
    }

    monitoringChecks(release, await (await fetch(`http://127.0.0.1:${serverPort}/metrics`)).text());

    if (match) await backupAndRestore({ release, target, envFile, backupDir, campusUid, testSettings, vendorKeys, admin: { tenantCode: match[1], account: match[2], password: match[3] }, curl, base });
    await fullDiskChecks({ release: path.join(target, 'opt/campus/current'), envFile, work, campusUid, check });

    const pids = releaseProcesses(path.join(target, 'opt/campus'));
    check('processes of the release found', pids.length > 0);
    const loaded = pids.flatMap((pid) => {
      const text = `${safeRead(`/proc/${pid}/cmdline`)}\n${safeRead(`/proc/${pid}/maps`)}`;
      return /tsx|better[-_]sqlite3/.test(text) ? [pid] : [];
    });
    check('no process of the release loads tsx or better-sqlite3', loaded.length === 0, loaded.join(','));
    check('the release ships neither tsx nor better-sqlite3', !existsSync(path.join(release, 'node_modules/tsx')) && !existsSync(path.join(release, 'node_modules/better-sqlite3')));

    // stop the server before installing again (as an upgrade in place would); the data stays
    process.kill(-server.pid, 'SIGTERM');
    await new Promise((resolve) => (server.exitCode !== null ? resolve() : server.once('exit', resolve)));
    const archivesBefore = readdirSync(backupDir).filter((name) => name.endsWith('.tar.gz'));
    const second = install();
    check('a second install succeeds', second.status === 0, second.stderr);
    const newArchives = readdirSync(backupDir).filter((name) => name.endsWith('.tar.gz') && !archivesBefore.includes(name));
    check('it backed the installation up before switching to the release (campus backup)', newArchives.length === 1 && /==> backing up the installation before switching from \S+ to \S+ \(campus backup\)\n[\s\S]*==> switching /.test(second.stdout), second.stdout);
    check('it keeps the environment file', readFileSync(envFile, 'utf8') === envBefore);
    check('it keeps serving the certificate copied the first time (no --tls-cert given now)', second.stdout.includes('kept the certificate installed before') && !second.stdout.includes('SELF-SIGNED'), second.stdout);
    if (hasPassword) check('it keeps the password file', readFileSync(passwordFile, 'utf8') === credentials && mode(passwordFile) === 0o600);
    check('it keeps the data', existsSync(path.join(dataDir, 'campus.db')));
  } finally {
    for (const child of started) {
      try {
        process.kill(child === started[0] ? -child.pid : child.pid, 'SIGTERM');
      } catch {
        /* already stopped */
      }
    }
  }
}

/** Runs a repository script with tsx (the test's own tools, not the release's). */
function repoTool(args) {
  return repoToolOf(root, args);
}

/**
 * Data through the API (licence, forced password change, sign-ins), then `bin/campus backup` while users sign in,
 * the backup in About System's Backup Logs over HTTPS, and a new installation restored from it.
 */
async function backupAndRestore({ release, target, envFile, backupDir, campusUid, testSettings, vendorKeys, admin, curl, base }) {
  const work = path.dirname(target);
  const serverUrl = `http://127.0.0.1:${serverPort}`;
  // the first sign-in as docs/operating.md tells it: the licence is in effect (install.sh --licence), so the
  // one-time password can be changed
  const expectationFile = path.join(work, 'expectation.json');
  const made = repoTool([path.join(root, 'e2e/upgrade/cli.ts'), 'make', '--base-url', serverUrl, '--admin', `${admin.tenantCode}:${admin.account}:${admin.password}`, '--out', expectationFile]);
  check('the one-time password is changed through the API, under the licence install.sh put in effect', made.status === 0, made.stderr || made.stdout);
  if (made.status !== 0) return;
  const expectation = JSON.parse(readFileSync(expectationFile, 'utf8'));
  check('the licence in effect is the customer\'s', expectation.licence?.code === 'CUSTOMER-0001', JSON.stringify(expectation.licence));
  const [user] = expectation.users;

  // users signing in all along the backup
  let signIns = 0;
  let loadErrors = 0;
  let loading = true;
  const body = JSON.stringify({ user: { account: user.account, password: createHash('sha256').update(user.password).digest('hex'), tenantCode: user.tenantCode } });
  const load = Promise.all(Array.from({ length: 4 }, async () => {
    while (loading) {
      const reply = await fetch(`${serverUrl}/user/api/v1.0/account/weblogin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then((r) => r.json(), () => ({ code: -1 }));
      if (reply.code === 0) signIns += 1;
      else loadErrors += 1;
    }
  }));
  const campus = (file, args) => spawn(path.join(file, 'bin/campus'), args, { env: { PATH: process.env.PATH, CAMPUS_ENV_FILE: envFile }, stdio: ['ignore', 'pipe', 'pipe'] });
  const backup = await finished(campus(path.join(target, 'opt/campus/current'), ['backup', '--remarks', 'release test under load']));
  loading = false;
  await load;
  check('campus backup succeeds while users sign in', backup.code === 0 && signIns > 0 && loadErrors === 0, `${backup.stderr} (sign-ins ${signIns}, errors ${loadErrors})`);
  // a sub-system of another team, registered with the release's own command (the service user reads the manifest)
  const manifest = path.join(work, 'partner.json');
  writeFileSync(manifest, JSON.stringify({
    appNo: 'partner',
    label: { 'en-US': 'Partner Orders', 'zh-CN': '合作伙伴订单', 'zh-MO': '合作夥伴訂單' },
    basePath: 'partner',
    pages: [{ id: 'partner-orders', path: '/partner/orders', name: 'orders', title: { 'en-US': 'Orders', 'zh-CN': '订单', 'zh-MO': '訂單' } }],
  }));
  chmodSync(manifest, 0o644);
  const added = await finished(campus(path.join(target, 'opt/campus/current'), ['subapp', 'add', manifest]));
  const registered = await finished(campus(path.join(target, 'opt/campus/current'), ['subapp', 'list']));
  check('campus subapp add registers a sub-system of another team, and campus subapp list shows it', added.code === 0 && registered.code === 0 && registered.stdout.includes('partner'), `${added.stderr}${registered.stderr}${registered.stdout}`.slice(0, 500));
  const archive = /^Backup (\S+) /m.exec(backup.stdout)?.[1] ?? '';
  check('the archive is in the backup folder, 0600 campus', path.dirname(archive) === backupDir && existsSync(archive) && (statSync(archive).mode & 0o777) === 0o600 && statSync(archive).uid === campusUid, backup.stdout);
  if (!existsSync(archive)) return;

  const signIn = JSON.parse(curl('-X', 'POST', '-H', 'content-type: application/json', '--data', body, `${base}/user/api/v1.0/account/weblogin`).stdout || '{}');
  const token = signIn.data?.loginInfo?.token ?? '';
  const listed = JSON.parse(curl('-X', 'POST', '-H', 'content-type: application/json', '-H', `token: ${token}`, '-H', 'language: en-US', '--data', JSON.stringify({ pageInfo: { index: 1, size: 10 } }), `${base}/common-service/api/BackUpLog/SearchBackupLog`).stdout || '{}');
  const row = listed.data?.find?.((entry) => entry.name === path.basename(archive));
  check('About System (Backup Logs, over HTTPS) lists that backup with its real size and folder', listed.code === 0 && row?.size === statSync(archive).size && row?.filePath === backupDir && row?.remarks === 'Backup by hand: release test under load', JSON.stringify(listed).slice(0, 300));

  // a new installation of the same archive, restored from that backup before its server ever starts
  const other = path.join(work, 'root2');
  const otherPort = serverPort + 1;
  const installed = spawnSync(path.join(release, 'install.sh'), ['--root', other, '--no-systemd', '--no-nginx-reload', '--server-name', serverName, '--port', String(otherPort), '--licence-trust', vendorKeys], { encoding: 'utf8' });
  check('a second installation installs beside it', installed.status === 0, installed.stderr);
  if (installed.status !== 0) return;
  const otherEnv = path.join(other, 'etc/campus/campus.env');
  appendFileSync(otherEnv, testSettings);
  const copy = path.join(other, 'var/backups/campus', path.basename(archive));
  execFileSync('cp', ['--preserve=mode,ownership', archive, copy]);
  const restore = await finished(spawn(path.join(other, 'opt/campus/current/bin/campus'), ['restore', copy, '--yes'], { env: { PATH: process.env.PATH, CAMPUS_ENV_FILE: otherEnv }, stdio: ['ignore', 'pipe', 'pipe'] }));
  check('campus restore puts the backup into the new installation', restore.code === 0, restore.stderr || restore.stdout);
  const restored = spawn(path.join(other, 'opt/campus/current/bin/campus-server'), [], { env: { PATH: process.env.PATH, CAMPUS_ENV_FILE: otherEnv }, stdio: 'ignore', detached: true });
  try {
    const up = await waitFor(async () => (await fetch(`http://127.0.0.1:${otherPort}/healthz`)).ok);
    check('the restored installation starts', up);
    const checked = repoTool([path.join(root, 'e2e/upgrade/cli.ts'), 'check', '--base-url', `http://127.0.0.1:${otherPort}`, '--expectation', expectationFile]);
    check('there the changed password signs in, the licence is in effect and the operation log is back', checked.status === 0, checked.stdout || checked.stderr);
  } finally {
    process.kill(-restored.pid, 'SIGTERM');
    await new Promise((resolve) => (restored.exitCode !== null ? resolve() : restored.once('exit', resolve)));
  }
}

/** A child's exit code and output, once it has ended. */
function finished(child) {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function waitFor(probe, tries = 60) {
  for (let i = 0; i < tries; i += 1) {
    try {
      if (await probe()) return true;
    } catch {
      /* not yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
}

function safeRead(file) {
  try {
    return readFileSync(file, 'latin1');
  } catch {
    return '';
  }
}

/** Processes whose program or arguments are in the installation. */
function releaseProcesses(installDir) {
  return readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).filter((pid) => safeRead(`/proc/${pid}/cmdline`).includes(installDir));
}
