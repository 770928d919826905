// The upgrade and the documented rollback, end to end (issue 26 item 8):
//   node --import tsx e2e/upgrade/run-upgrade.ts [--from <source tree>] [--release <unpacked release folder>]
//                                                [--database-url <an empty PostgreSQL database>]
// Starts a production gate deployment of the old version (server from <source tree>, default this checkout, on a temp
// DATA_DIR, and this checkout's card issuer), makes data, takes the pre-upgrade backup with the new version's `campus
// backup`, asks `campus migrate --dry-run`, stops the old server and starts the new one on the same folder (it migrates
// as it starts) and checks the data; then changes rows behind the server's back and shows the checker reports it; then rolls back as
// docs/operating.md says (`campus restore` of that backup, then the old server) and checks again.
// The new version is this checkout run from source, or with --release an unpacked release archive: its bin/campus
// and bin/campus-server with an environment file, as install.sh sets them up.
// Exit code 0 when all three hold.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkData, describeDifferences, makeData, type Credentials } from './upgrade-data.ts';
import { makeMotherCard, sm3Hex } from '@campus/card-crypto';
import { demoCardNumbers } from '../../apps/card-issuer/src/readers/demo-cards.ts';
import { VirtualReader } from '../../apps/card-issuer/src/readers/virtual-reader.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const option = (name: string): string | undefined => {
  const index = process.argv.indexOf(name);
  return index > 0 ? path.resolve(process.argv[index + 1] ?? '') : undefined;
};
const oldTree = option('--from') ?? root;
const release = option('--release');
/** The installation's PostgreSQL database (empty at the start), or SQLite in the data folder when not given. */
const databaseUrl = process.argv.includes('--database-url') ? process.argv[process.argv.indexOf('--database-url') + 1] ?? '' : '';
const port = Number(process.env.UPGRADE_PORT ?? 6491);
const baseUrl = `http://127.0.0.1:${port}`;
const issuerPort = Number(process.env.UPGRADE_ISSUER_PORT ?? 6492);
const issuerUrl = `http://127.0.0.1:${issuerPort}`;
const cardPassword = 'Card#2026x';
const work = mkdtempSync(path.join(tmpdir(), 'campus-upgrade-'));
const dataDir = path.join(work, 'data');
const backupDir = path.join(work, 'backups');

interface Running { child: ChildProcess; output: () => string }

/** The installation's settings, the same for the old server and the new one. */
const settings: Record<string, string> = {
    MJ_SYSTEM: '21',
    CARD_ISSUER_PORT: String(issuerPort),
    CARD_ISSUER_URL: '',
    NODE_ENV: 'production',
    IMAGE_CODE: 'off',
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    CUSTOMER_NO: '10001',
    LICENCE_TRUST_FILE: path.join(root, 'apps/server/licence-keys/test-trust.json'),
    RATE_LIMIT_PER_MINUTE: '2000',
    BACKUP_DIR: backupDir,
};

/** The release's programs read the installation's environment file (install.sh writes it; here the test does). */
const releaseEnv = (): Record<string, string> => {
  const envFile = path.join(work, 'campus.env');
  if (!existsSync(envFile)) writeFileSync(envFile, Object.entries(settings).map(([key, value]) => `${key}=${value}\n`).join(''), { mode: 0o600 });
  // as root the wrappers drop to the service user; the test's folders are this user's, so that is who runs them
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', CAMPUS_ENV_FILE: envFile, CAMPUS_USER: userInfo().username };
};

type Side = { tree: string } | { release: string };
const oldSide: Side = { tree: oldTree };
const newSide: Side = release ? { release } : { tree: root };

async function startServer(side: Side): Promise<Running> {
  if ('release' in side) return startProgram(path.join(side.release, 'bin/campus-server'), [], side.release, `${baseUrl}/healthz`, releaseEnv());
  return startProgram(process.execPath, ['--import', 'tsx', path.join(side.tree, 'apps/server/src/main.ts')], side.tree, `${baseUrl}/healthz`, { ...process.env, ...settings });
}

/** The new version's `campus` command on the installation: it knows the old schema and the new. */
function campus(args: string[]): string {
  if ('release' in newSide) return execFileSync(path.join(newSide.release, 'bin/campus'), args, { encoding: 'utf8', env: releaseEnv() });
  return execFileSync(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/cli/campus.ts'), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, ...settings },
  });
}

/**
 * The vendor's mother card of a site set up before issue 46 (customer 10001): its K_cust by the old PBKDF2-SM3, which
 * the old server reads and the new one still reads; the demo's own mother card is argon2id's, which no release before
 * issue 46 opens. Three blank cards beside it, as the demo has.
 */
function plantOldMotherCard(): void {
  const reader = new VirtualReader(path.join(work, 'issuer'));
  reader.addCard(makeMotherCard({ customerNo: '10001', customerPwdDigest: sm3Hex('Customer#2026'), derivation: 'pbkdf2-sm3' }), demoCardNumbers.mother);
  for (const fixedNo of demoCardNumbers.blanks) reader.addCard(undefined, fixedNo);
  reader.place(demoCardNumbers.mother);
}

/** The card issuer with the virtual reader holding that mother card and blanks. */
function startIssuer(): Promise<Running> {
  plantOldMotherCard();
  return startProgram(process.execPath, ['--import', 'tsx', path.join(root, 'apps/card-issuer/src/main.ts')], root, `${issuerUrl}/reader/api/status`, {
    ...process.env,
    CARD_ISSUER_PORT: String(issuerPort),
    CARD_ISSUER_DATA_DIR: path.join(work, 'issuer'),
    CARD_ISSUER_ALLOWED_ORIGINS: baseUrl,
  });
}

async function startProgram(command: string, args: string[], cwd: string, readyUrl: string, env: NodeJS.ProcessEnv): Promise<Running> {
  let output = '';
  const main = path.basename(args.at(-1) ?? command);
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env });
  child.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      if ((await fetch(readyUrl)).ok) break;
    } catch { /* not listening yet */ }
    if (child.exitCode !== null) throw new Error(`${main} from ${cwd} stopped (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) { child.kill('SIGTERM'); throw new Error(`${main} from ${cwd} did not answer within 90 s:\n${output}`); }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { child, output: () => output };
}

function stop(running: Running): Promise<void> {
  return new Promise((resolve) => {
    if (running.child.exitCode !== null) return resolve();
    running.child.once('exit', () => resolve());
    running.child.kill('SIGTERM');
  });
}

/** The version the running server says it is (CheckVersion, public, in every release): whose code answers. */
async function reportedVersion(): Promise<string> {
  const reply = await fetch(`${baseUrl}/iot-login/api/v1.0/Device/CheckVersion?guid=upgrade-test`);
  const body = (await reply.json()) as { data?: { version?: unknown } };
  if (typeof body.data?.version !== 'string') throw new Error(`CheckVersion named no version: ${JSON.stringify(body)}`);
  return body.data.version;
}

function versionOf(side: Side): string {
  if ('release' in side) return `release ${campus(['version']).split('\n')[0]}`;
  const text = readFileSync(path.join(side.tree, 'packages/contracts/src/shell-constants.ts'), 'utf8');
  return `${side.tree} (${/shellVersion\s*=\s*'([^']+)'/.exec(text)?.[1] ?? 'unknown version'})`;
}

/** The first-start administrator: in the banner (releases before 3.6.0) or in the file the banner names. */
function firstAdmin(banner: string): Credentials {
  const file = /one-time password is in (\S+?) \(/.exec(banner)?.[1];
  const text = file && existsSync(file) ? readFileSync(file, 'utf8') : banner;
  const match = /tenant (\S+)\s+account (\S+)\s+password (\S+)/.exec(text);
  if (!match) throw new Error(`no first-start administrator in the banner:\n${banner}`);
  return { tenantCode: match[1]!, account: match[2]!, password: match[3]! };
}

function issueLicence(): string {
  const out = path.join(work, 'upgrade.lic');
  execFileSync(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/cli/licence.ts'), 'issue',
    '--key', path.join(root, 'apps/server/licence-keys/test-private/test-ed25519-2026.private.json'),
    '--customer-no', '10001', '--customer-name', 'Upgrade Campus', '--package', 'Enterprise',
    '--begin', '2026-01-01', '--end', '2099-12-31', '--employees', 'unlimited', '--apps', 'all', '--code', 'UPGRADE-0001', '--out', out,
  ], { cwd: root, stdio: 'pipe' });
  return out;
}

async function main(): Promise<number> {
  let failed = false;
  const issuer = await startIssuer();
  const old = await startServer(oldSide);
  let running = old;
  const say = (text: string) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  try {
    const oldVersion = await reportedVersion();
    const expectation = await makeData({ baseUrl, admin: firstAdmin(old.output()), licenceFile: issueLicence(), gate: { issuerUrl, cardPassword } });
    writeFileSync(path.join(work, 'expectation.json'), `${JSON.stringify(expectation, null, 2)}\n`, { mode: 0o600 });
    say(`made data with ${versionOf(oldSide)}: ${expectation.users.length} user(s), licence ${String(expectation.licence?.code)}, ${expectation.operationLog.count} log rows, ${expectation.cards?.adminCards.length ?? 0} admin card(s), ${expectation.cards?.keyCards.length ?? 0} key card(s); expectation in ${path.join(work, 'expectation.json')}`);
    // the procedure of docs/operating.md "Upgrading": 1. a backup while the old server runs
    const backedUp = campus(['backup', '--remarks', `before upgrading to ${versionOf(newSide)}`]);
    const archive = /^Backup (\S+) /m.exec(backedUp)?.[1];
    if (!archive) throw new Error(`campus backup said no archive:\n${backedUp}`);
    say(backedUp);
    // 3. what the new release's migrations will change; 4. the switch: the new server migrates as it starts
    const planned = campus(['migrate', '--dry-run']);
    say(planned);
    await stop(old);
    running = await startServer(newSide);
    // two builds that differ must not share a version: the release folder and the rollback are named by it
    const newVersion = await reportedVersion();
    if (!release) say(`note: the new side runs from source (${newVersion}), not a build: its version is not compared`);
    else if (newVersion !== oldVersion) say(`PASS: the new build says ${newVersion}, the old one said ${oldVersion}`);
    else { failed = true; say(`FAIL: the new build says ${newVersion}, as the old one did: a rollback could not tell them apart`); }
    const migrations = [...planned.matchAll(/^\s+(\d{4}_\w+)$/gm)].map((match) => match[1]!);
    const unsaid = migrations.filter((name) => !running.output().includes(name));
    if (unsaid.length === 0) say(`PASS: the new server's log names each migration it ran (${migrations.length})`);
    else { failed = true; say(`FAIL: the new server's log does not name ${unsaid.join(', ')}:\n${running.output()}`); }
    const after = await checkData(expectation, baseUrl, issuerUrl);
    if (after.length === 0) say(`PASS: every expectation holds on ${versionOf(newSide)}`);
    else { failed = true; say(`FAIL: after the upgrade:\n${describeDifferences(after)}`); }
    await stop(running);

    // behind the server's back: the log loses its sign-in rows, the key card changes state
    const tampering = "DELETE FROM operation_logs WHERE action = 'login'; UPDATE system_key_cards SET state = state + 1;";
    if (databaseUrl) execFileSync('psql', ['-q', '-v', 'ON_ERROR_STOP=1', databaseUrl, '-c', tampering]);
    else execFileSync('sqlite3', [path.join(dataDir, 'campus.db'), tampering]);
    running = await startServer(newSide);
    const tampered = await checkData(expectation, baseUrl, issuerUrl);
    if (tampered.length > 0) say(`PASS: the checker sees the tampering:\n${describeDifferences(tampered)}`);
    else { failed = true; say('FAIL: the checker saw nothing after the rows were deleted'); }
    await stop(running);

    // rollback: the backup of step 1 restored into the stopped installation, then the old release on it
    say(campus(['restore', archive, '--yes']));
    running = await startServer(oldSide);
    // the old code runs again, not only the old data
    const rolledBackVersion = await reportedVersion();
    if (rolledBackVersion === oldVersion && (!release || rolledBackVersion !== newVersion)) say(`PASS: after the rollback the server is the old code again (${rolledBackVersion})`);
    else { failed = true; say(`FAIL: after the rollback the server says ${rolledBackVersion}, not the old ${oldVersion}`); }
    const rolledBack = await checkData(expectation, baseUrl, issuerUrl);
    if (rolledBack.length === 0) say(`PASS: after the rollback every expectation holds on ${versionOf(oldSide)}`);
    else { failed = true; say(`FAIL: after the rollback:\n${describeDifferences(rolledBack)}`); }
  } finally {
    await stop(running);
    await stop(issuer);
    if (!failed) rmSync(work, { recursive: true, force: true });
    else say(`kept ${work} for a look`);
  }
  return failed ? 1 : 0;
}

main().then((code) => process.exit(code), (error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
