/**
 * The operating command of an installation (docs/operating.md): `campus <command>` in a release,
 * `npm run campus -- <command>` in the repository. It reads the server's own settings (the environment file of a
 * release, or the environment) and acts on the same database and folders.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cardLoginModes, licenceCalendarUtcDiff, licenceCondition, licenceLimits, licenceStates, shellVersion } from '@campus/contracts';
import type { CardLoginMode, LicenceCondition } from '@campus/contracts';
import { ConfigError, describeDatabase, loadConfig } from '../config.ts';
import type { Config } from '../config.ts';
import { dialectOf, openDatabase } from '../db/database.ts';
import type { DatabaseHandle } from '../db/database.ts';
import { appliedSchema, knownMigrations, migrateToLatestNamed, pendingMigrations } from '../db/migrations.ts';
import { withStartLock } from '../db/start-lock.ts';
import { displayTextProblem } from '../lib/display-text.ts';
import { probeWrite } from '../lib/storage-watch.ts';
import { BackupLogRepository } from '../modules/backup-log/backup-log-repository.ts';
import { BackupLogService } from '../modules/backup-log/backup-log-service.ts';
import { BackupError, takeBackup } from '../modules/backup/backup-archive.ts';
import { RestoreError } from '../modules/backup/restore-archive.ts';
import { RestoreService } from '../modules/backup/restore-service.ts';
import { installationWide } from '../modules/operation-log/operation-log-service.ts';
import { cardLoginModeOf, setCardLoginMode } from '../modules/admin-login-card/card-login-setting.ts';
import type { LicenceCheck } from '../modules/licence/licence-service.ts';
import { createServices, isDemoInstallation } from '../services.ts';
import { oneTimePassword, seedDatabase } from '../seed/seed.ts';
import { ssoCommand, ssoHelp, SsoUsageError } from './sso.ts';
import type { SsoValues } from './sso.ts';

class UsageError extends Error {}

/** A licence the installation refused (exit 1, its reason). */
class LicenceRefused extends Error {}

/** A path the operator typed, from where they typed it (npm run moves to the repository first; npm says where from). */
function fromCaller(file: string): string {
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
}

const help = `campus: operate this installation (with the server's settings: DATABASE_URL or DATA_DIR, BACKUP_DIR, ...)

  campus backup [--remarks TEXT] [--scheduled]
      A consistent copy of the database (while the server runs), DATA_DIR/tools and the sub-app builds, in one
      archive of BACKUP_DIR, with the KEK file (gate deployments) as a file of its own beside it. Writes the row
      About System > Backup Logs lists, and removes backups past BACKUP_RETENTION_DAYS with their rows.
      --scheduled marks it as taken by the timer.

  campus restore <archive> [--kek <file>] --yes
      Into a STOPPED installation: checks the archive against its manifest, then replaces the database, the tools
      and the sub-app builds with its copies (and the KEK with --kek's file). What was there is put back if a
      step fails. Every session ends; the operation log says which backup was restored.

  campus init
      For the installer: migrates a new database and creates the system administrator with a one-time password,
      printed on stdout only ("tenant … account … password …"; redirect it into a file only root reads). On a
      database that holds an installation already it prints nothing and says so on stderr.

  campus admin reset-password --tenant <code> --account <account>
      For a lost password (the first one-time password included): gives the account a new one-time password, printed
      on stdout only, that must be changed at the next sign-in; ends the account's sessions; the operation log says
      who reset it (never the password).

  campus admin installation-admin --tenant <code> --account <account> [--off]
  campus admin installation-admin --list
      Marks a system administrator as installation administrator (--off clears the mark): over HTTP he may then
      register, replace and remove sub-systems, grant and revoke them in every tenant, and upload and activate
      licences and register the trial, which change what every tenant is served. A tenant's other system
      administrators govern their own tenant only. --list names the installation administrators. The mark and its
      clearing go to the installation-wide operation log (docs/installation-and-tenants.md).
  campus card-login --tenant <code> [card-and-password | card-alone]
      How the tenant's administrators sign in with their administrator card: with the card password (the default)
      or the card alone (a copy of the card's bytes then signs in too; docs/cards.md). Without a setting it prints
      the tenant's; a change is written in the tenant's operation log.

  campus licence add <file.lic>
      Installs the vendor's licence file: checks it against the vendor keys of LICENCE_TRUST_FILE and this
      installation's customer number, stores it and puts it in effect (the licence in effect before it is
      replaced). An installation without a customer number yet (CUSTOMER_NO unset) takes the licence's. As root the
      file is read by root, so it may lie where the service user cannot read (campus licence add - < FILE reads it
      from stdin; --name names it then). Written to the installation-wide operation log.

  campus licence list
      The installation's customer number and licence status, then every stored licence: code, formal or trial,
      state, validity (days on the licence calendar, UTC+08:00), customer, applications, and a failed check.

${ssoHelp}
  campus migrate [--dry-run]
      Applies the database migrations this release has and the database lacks, naming each one;
      --dry-run only lists them.

  campus check
      One line per check (ok / warn / FAIL): the database answers and is migrated, the data and backup folders exist,
      take writes and are for the service user only (0700; the database and KEK 0600), free space, the KEK file of
      a gate deployment. Exit 1 when a check fails.

  campus version
      This release, the Node.js it runs on, the database and the schema it is at.

Exit codes: 0 done, 1 failed (the message says what and where), 2 bad usage or configuration.
`;

/** The database as a command uses it: no statement timeout (a restore's or migration's may run long), no prepared statements. */
function openForCommand(config: Config): DatabaseHandle {
  return openDatabase({ ...config, databaseStatementTimeoutMs: 0, databasePreparedStatements: false });
}

async function withDatabase<T>(config: Config, work: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
  const handle = openForCommand(config);
  try {
    return await work(handle);
  } finally {
    await handle.close();
  }
}

async function backup(config: Config, values: { remarks?: string; scheduled?: boolean }): Promise<number> {
  if (values.remarks !== undefined && values.remarks.length > 200) throw new UsageError('--remarks is at most 200 characters');
  const unshown = values.remarks === undefined ? null : displayTextProblem(values.remarks);
  // About System shows the remarks to every system administrator
  if (unshown !== null) throw new UsageError(`--remarks holds ${unshown}: remarks may not hold control characters, invisible formatting characters (such as U+202E) or "<" and ">"`);
  return withDatabase(config, async (handle) => {
    if ((await appliedSchema(handle.db)) === '') throw new BackupError(`${describeDatabase(config)} holds no installation yet (never started or migrated): nothing to back up`);
    const now = () => Date.now();
    const outcome = await takeBackup(
      { settings: config, db: handle.db, dialect: handle.dialect, backupLogs: new BackupLogService({ repo: new BackupLogRepository(handle.db), now: now }), now },
      { scheduled: values.scheduled === true, remarks: values.remarks },
    );
    process.stdout.write(`Backup ${outcome.archive} (${outcome.size} bytes) of ${describeDatabase(config)}\n`);
    if (outcome.kekCopy) process.stdout.write(`The system key's KEK: ${outcome.kekCopy} (store it apart from the archives)\n`);
    process.stdout.write(`Kept ${config.backupRetentionDays} days; listed in About System > Backup Logs.\n`);
    for (const name of outcome.pruned) process.stdout.write(`Removed ${name} (past its retention)\n`);
    return 0;
  });
}

async function restore(config: Config, archive: string | undefined, values: { kek?: string; yes?: boolean }): Promise<number> {
  if (!archive) throw new UsageError('restore needs the archive: campus restore <archive> [--kek <file>] --yes');
  if (values.yes !== true) throw new UsageError(`campus restore replaces this installation's database, tools and sub-app builds with the copies in ${archive}: add --yes to go on`);
  const restorer = new RestoreService({ settings: config, openDatabase: () => openForCommand(config), now: () => Date.now() });
  const { manifest, kekLeftBeside } = await restorer.restore({
    archive: fromCaller(archive),
    kek: values.kek ? fromCaller(values.kek) : null,
    actor: { account: `cli:${os.userInfo().username}`, clientIp: 'localhost' },
  });
  process.stdout.write(`Restored ${archive} (taken ${new Date(manifest.createdAt).toISOString()} by release ${manifest.version}, schema ${manifest.schema}) into ${describeDatabase(config)}.
`);
  if (kekLeftBeside) process.stdout.write('The KEK copy beside the archive was not restored (give it with --kek if the installation lost its own).\n');
  process.stdout.write('Every session has ended. Start the server: it applies any migration this release adds.\n');
  return 0;
}

async function migrate(config: Config, dryRun: boolean): Promise<number> {
  return withDatabase(config, async (handle) => {
    const pending = await pendingMigrations(handle.db, handle.dialect);
    if (pending.length === 0) {
      process.stdout.write(`The database is up to date (${(await appliedSchema(handle.db)) || 'no migration'}).\n`);
      return 0;
    }
    if (dryRun) {
      process.stdout.write(`Would apply ${pending.length} migration(s) to ${describeDatabase(config)}:\n${pending.map((name) => `  ${name}\n`).join('')}`);
      return 0;
    }
    // one process at a time per database, like the servers' own start
    await withStartLock(handle, config, () => migrateToLatestNamed(handle.db, handle.dialect, (name) => process.stdout.write(`Applied ${name}\n`)));
    process.stdout.write(`The database is at ${await appliedSchema(handle.db)}.\n`);
    return 0;
  });
}

async function init(config: Config): Promise<number> {
  return withDatabase(config, async (handle) => {
    const seeded = await withStartLock(handle, config, async () => {
      await migrateToLatestNamed(handle.db, handle.dialect, (name) => process.stderr.write(`Applied ${name}\n`));
      return seedDatabase(createServices(handle, config), config);
    });
    if (seeded.mode === 'production') {
      process.stdout.write(`tenant ${seeded.admin.tenantCode}\naccount ${seeded.admin.account}\npassword ${seeded.admin.password}\n`);
      process.stderr.write(`Initialised ${describeDatabase(config)}: the system administrator must change the one-time password at the first sign-in.\n`);
    } else if (seeded.mode === 'demo') {
      process.stderr.write(`Initialised ${describeDatabase(config)} with the demo (NODE_ENV is not production): its accounts are in the README.\n`);
    } else {
      process.stderr.write(`${describeDatabase(config)} holds an installation already: nothing to initialise.\n`);
    }
    return 0;
  });
}

async function resetPassword(config: Config, tenant: string | undefined, account: string | undefined): Promise<number> {
  if (!tenant || !account) throw new UsageError('admin reset-password needs --tenant and --account: campus admin reset-password --tenant 1001 --account admin');
  return withDatabase(config, async (handle) => {
    if ((await pendingMigrations(handle.db, handle.dialect)).length > 0) throw new UsageError(`${describeDatabase(config)} is not migrated to this release: run campus migrate first`);
    const services = createServices(handle, config);
    const user = await services.account.findUser(tenant, account);
    if (!user) throw new UsageError(`no account "${account}" in tenant ${tenant}`);
    const password = oneTimePassword();
    await services.account.resetToOneTimePassword(user.id, password);
    const ended = await services.sessions.revokeAllOfUser(user.id);
    await services.logs.record({
      tenantCode: tenant,
      account,
      action: 'password-reset',
      result: 'success',
      clientIp: 'localhost',
      detail: `one-time password set by cli:${os.userInfo().username}; ${ended} session(s) ended`,
    });
    process.stdout.write(`tenant ${tenant}\naccount ${account}\npassword ${password}\n`);
    process.stderr.write(`The password must be changed at the next sign-in; ${ended} session(s) of ${tenant}/${account} ended.\n`);
    return 0;
  });
}

async function installationAdmin(config: Config, values: { tenant?: string; account?: string; off?: boolean; list?: boolean }): Promise<number> {
  if (values.list === true) {
    if (values.tenant || values.account || values.off) throw new UsageError('admin installation-admin --list takes no other option');
  } else if (!values.tenant || !values.account) {
    throw new UsageError('admin installation-admin needs --tenant and --account (or --list): campus admin installation-admin --tenant 1001 --account admin [--off]');
  }
  return withDatabase(config, async (handle) => {
    if ((await pendingMigrations(handle.db, handle.dialect)).length > 0) throw new UsageError(`${describeDatabase(config)} is not migrated to this release: run campus migrate first`);
    const services = createServices(handle, config);
    if (values.list === true) {
      const admins = await services.account.installationAdmins();
      if (admins.length === 0) process.stdout.write('No account is an installation administrator.\n');
      for (const user of admins) {
        const note = user.is_system_admin !== 1 ? ' (no longer a system administrator: the mark gives nothing)' : user.is_disabled === 1 ? ' (disabled)' : '';
        process.stdout.write(`${user.tenant_code}/${user.account}  ${user.name}${note}\n`);
      }
      return 0;
    }
    const [tenant, account] = [values.tenant ?? '', values.account ?? ''];
    const user = await services.account.findUser(tenant, account);
    if (!user) throw new UsageError(`no account "${account}" in tenant ${tenant}`);
    const on = values.off !== true;
    if (on && user.is_system_admin !== 1) throw new UsageError(`${tenant}/${account} is not a system administrator: only a system administrator can be an installation administrator`);
    await services.account.setInstallationAdmin(user.id, on);
    await services.logs.record({
      tenantCode: installationWide,
      account: `cli:${os.userInfo().username}`,
      action: 'installation-admin',
      result: 'success',
      clientIp: 'localhost',
      detail: `${tenant}/${account} ${on ? 'marked' : 'no longer'} installation administrator`,
    });
    process.stdout.write(on ? `${tenant}/${account} is an installation administrator.\n` : `${tenant}/${account} is no longer an installation administrator.\n`);
    return 0;
  });
}

async function cardLogin(config: Config, tenant: string | undefined, mode: string | undefined): Promise<number> {
  if (!tenant) throw new UsageError(`card-login needs --tenant: campus card-login --tenant 1001 [${cardLoginModes.join(' | ')}]`);
  if (mode !== undefined && !(cardLoginModes as readonly string[]).includes(mode)) throw new UsageError(`card-login takes ${cardLoginModes.join(' or ')}, not "${mode}"`);
  return withDatabase(config, async (handle) => {
    if ((await pendingMigrations(handle.db, handle.dialect)).length > 0) throw new UsageError(`${describeDatabase(config)} is not migrated to this release: run campus migrate first`);
    const services = createServices(handle, config);
    const row = await services.account.tenant(tenant);
    if (!row) throw new UsageError(`no tenant ${tenant}`);
    if (mode !== undefined) {
      await setCardLoginMode(services, { tenantCode: tenant, account: `cli:${os.userInfo().username}`, clientIp: 'localhost' }, mode as CardLoginMode);
    }
    process.stdout.write(`tenant ${tenant} card-login ${mode ?? cardLoginModeOf(row)}\n`);
    return 0;
  });
}

async function sso(config: Config, args: string[], values: SsoValues): Promise<number> {
  return withDatabase(config, async (handle) => {
    if ((await pendingMigrations(handle.db, handle.dialect)).length > 0) throw new UsageError(`${describeDatabase(config)} is not migrated to this release: run campus migrate first`);
    try {
      return await ssoCommand(createServices(handle, config), args, values, { account: `cli:${os.userInfo().username}`, clientIp: 'localhost' }, config.publicUrl);
    } catch (error) {
      if (error instanceof SsoUsageError) throw new UsageError(error.message);
      throw error;
    }
  });
}

/** A licence bound as a day on the licence calendar (UTC+08:00), as the vendor's tool takes it. */
function licenceDay(time: number | null): string {
  return time === null ? 'follows the system' : new Date(time + licenceCalendarUtcDiff * 60_000).toISOString().slice(0, 10);
}

const conditionWords: Record<LicenceCondition, string> = {
  normal: 'a licence is in effect',
  none: 'NO LICENCE yet: add one (campus licence add), or register the 30-day trial at the first sign-in',
  notStarted: 'NOT VALID: the licence in effect has not started yet',
  expired: 'NOT VALID: the licence in effect has expired',
  failedCheck: 'NOT VALID: the licence in effect failed its check (see below)',
  nonePassed: 'NOT VALID: no stored licence passed its check',
  noneValid: 'NOT VALID: no stored licence is within its validity',
  tampered: 'NOT VALID: authorization tampered (a licence file was changed, or the clock was set back)',
};

const checkWords: Record<LicenceCheck, string> = {
  ok: '',
  tampered: '  TAMPERED: the file does not verify',
  otherInstallation: '  FOR ANOTHER INSTALLATION (its customer number is not this one)',
  untrusted: '  NOT CHECKED: no vendor key is trusted (LICENCE_TRUST_FILE)',
};

function licenceStateWords(state: number, effectivenessCode: number): string {
  const state_ = state === licenceStates.normal ? 'in effect' : state === licenceStates.replaced ? 'replaced' : 'not activated';
  if (effectivenessCode === licenceStates.expired) return `${state_}, expired`;
  if (effectivenessCode === licenceStates.notStarted) return `${state_}, not started`;
  if (effectivenessCode === licenceStates.aboutToExpire) return `${state_}, about to expire`;
  return state_;
}

/** The licence services as the server has them: the test vendor keys are trusted only on the demo, as there. */
async function licenceServices(config: Config, handle: DatabaseHandle) {
  if ((await pendingMigrations(handle.db, handle.dialect)).length > 0) throw new UsageError(`${describeDatabase(config)} is not migrated to this release: run campus migrate first`);
  return createServices(handle, config, { trustTestKeys: config.licenceTrustFile === null && (await isDemoInstallation(handle)) });
}

async function licence(config: Config, args: string[], values: { name?: string }): Promise<number> {
  const [action, file, ...more] = args;
  if (action === 'list') {
    if (file !== undefined || values.name !== undefined) throw new UsageError('licence list takes no argument');
    return withDatabase(config, async (handle) => {
      const services = await licenceServices(config, handle);
      const { customer, status, licences } = await services.licence.overview();
      process.stdout.write(`Customer number ${customer.customerNo || '(none yet: CUSTOMER_NO, or taken from the first licence added)'}, system code ${customer.systemCode}\n`);
      process.stdout.write(`Status: ${conditionWords[licenceCondition(status)]}\n`);
      if (licences.length === 0) process.stdout.write('No licence is stored.\n');
      for (const row of licences) {
        const apps = row.infos.map((info) => info.appId).join(',');
        const employees = row.empCount === licenceLimits.unlimitedEmployees ? 'unlimited' : String(row.empCount);
        process.stdout.write(
          `${row.code}  ${row.isFormal ? 'formal' : 'trial'}  ${licenceStateWords(row.state, row.effectiveness)}  ${licenceDay(row.beginTime)} to ${licenceDay(row.endTime)}  customer ${row.customerName}  apps ${apps}  employees ${employees}${checkWords[row.check]}\n`,
        );
      }
      return 0;
    });
  }
  if (action !== 'add') throw new UsageError(`campus licence ${action ?? ''}: the licence commands are add and list\n\n${help}`);
  if (file === undefined || more.length > 0) throw new UsageError('licence add takes one licence file: campus licence add <file.lic> (or - for stdin)');
  let name: string;
  let bytes: Buffer;
  if (file === '-') {
    name = values.name ?? 'licence.lic';
    bytes = fs.readFileSync(0);
  } else {
    if (values.name !== undefined) throw new UsageError('--name is for a licence read from stdin (-) only');
    name = path.basename(file);
    try {
      bytes = fs.readFileSync(fromCaller(file));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why = code === 'EACCES' ? `the user ${os.userInfo().username} may not read it (as root: sudo campus licence add reads it for the service user)` : code === 'ENOENT' ? 'no such file' : String(code ?? error);
      throw new UsageError(`cannot read the licence file ${file}: ${why}`);
    }
  }
  if (!/\.lic$/i.test(name)) throw new UsageError(`${name} is not a .lic file: a licence from the vendor is a .lic file`);
  return withDatabase(config, async (handle) => {
    const services = await licenceServices(config, handle);
    const actor = { tenantCode: installationWide, account: `cli:${os.userInfo().username}`, clientIp: 'localhost' };
    const outcome = await services.licence.addByOperator({ fileName: name, bytes }, actor);
    if (!outcome.ok) throw new LicenceRefused(`${name} was not installed: ${outcome.message}`);
    if (outcome.adoptedCustomerNo !== null) process.stdout.write(`The installation took its customer number ${outcome.adoptedCustomerNo} from the licence.\n`);
    process.stdout.write(outcome.alreadyInEffect ? `Licence ${outcome.code} was in effect already.\n` : `Licence ${outcome.code} is in effect.\n`);
    if (!outcome.alreadyInEffect) process.stdout.write('Whoever is signed in signs in again to use it (the licence prompt: Return to login).\n');
    return 0;
  });
}

type Verdict = 'ok' | 'warn' | 'FAIL';

/** Mode bits others than the owner have on `file` (0 when private), or null when it does not exist. */
function wideBits(file: string): number | null {
  try {
    return fs.statSync(file).mode & 0o077;
  } catch {
    return null;
  }
}

function freeSpace(folder: string): { bytes: number; share: number } | null {
  try {
    const stats = fs.statfsSync(folder);
    return { bytes: Number(stats.bavail) * Number(stats.bsize), share: Number(stats.bavail) / Number(stats.blocks) };
  } catch {
    return null;
  }
}

async function check(config: Config): Promise<number> {
  const lines: [Verdict, string][] = [];
  const say = (verdict: Verdict, text: string) => lines.push([verdict, text]);
  say('ok', `configuration read (NODE_ENV ${config.nodeEnv}, ${describeDatabase(config)})`);
  for (const [name, folder] of [['data folder (DATA_DIR)', config.dataDir], ['backup folder (BACKUP_DIR)', config.backupDir]] as const) {
    const wide = wideBits(folder);
    if (wide === null) {
      say(name.startsWith('backup') ? 'warn' : 'FAIL', `${name} ${folder} does not exist${name.startsWith('backup') ? ' (the first backup makes it)' : ''}`);
      continue;
    }
    const failed = probeWrite(folder);
    const problem = failed && (failed.code ?? failed.message);
    say(problem ? 'FAIL' : 'ok', problem ? `${name} ${folder} does not take writes (${problem})` : `${name} ${folder} takes writes`);
    say(wide === 0 ? 'ok' : 'warn', wide === 0 ? `${name} is for its owner only` : `${name} ${folder} is open to others (mode ${(fs.statSync(folder).mode & 0o777).toString(8)}): chmod 700`);
    const free = freeSpace(folder);
    if (free) {
      const low = free.bytes < 1024 ** 3 || free.share < 0.1;
      say(low ? 'warn' : 'ok', `${name}: ${(free.bytes / 1024 ** 3).toFixed(1)} GiB free (${Math.round(free.share * 100)} %)${low ? ': under 10 % or 1 GiB' : ''}`);
    }
  }
  for (const [name, file] of [['the SQLite database', dialectOf(config) === 'sqlite' ? config.sqliteFile : null], ['the KEK file (SYSTEM_KEY_KEK_FILE)', config.systemKeyKekFile]] as const) {
    if (file === null) continue;
    const wide = wideBits(file);
    if (wide === null) {
      if (name.startsWith('the KEK') && config.nationalCrypto) say('warn', `${name} ${file} does not exist yet (the gate set-up makes it; back it up apart)`);
      continue;
    }
    say(wide === 0 ? 'ok' : 'FAIL', wide === 0 ? `${name} is for its owner only` : `${name} ${file} is readable by others (mode ${(fs.statSync(file).mode & 0o777).toString(8)}): chmod 600`);
  }
  // last: opening the SQLite file makes it private, and the modes above are read as they were
  try {
    await withDatabase(config, async (handle) => {
      const pending = await pendingMigrations(handle.db, handle.dialect);
      say('ok', 'the database answers');
      if (pending.length === 0) say('ok', `the database is migrated (${await appliedSchema(handle.db)})`);
      else say('warn', `migrations not applied yet: ${pending.join(', ')} (the server applies them at start; campus migrate --dry-run lists them)`);
    });
  } catch (error) {
    say('FAIL', `the database cannot be used: ${error instanceof Error ? error.message : String(error)}`);
  }
  for (const [verdict, text] of lines) process.stdout.write(`${verdict.padEnd(4)}  ${text}\n`);
  return lines.some(([verdict]) => verdict === 'FAIL') ? 1 : 0;
}

async function version(config: Config): Promise<number> {
  const latest = knownMigrations(dialectOf(config)).at(-1) ?? '';
  process.stdout.write(`campus-shell ${shellVersion}\nNode.js ${process.version} on ${os.platform()}-${os.arch()}\nDatabase ${describeDatabase(config)}\n`);
  try {
    const schema = await withDatabase(config, (handle) => appliedSchema(handle.db));
    const state = schema === latest ? 'up to date' : schema === '' ? 'new: not migrated yet' : `this release's is ${latest}: run campus migrate`;
    process.stdout.write(`Schema ${schema || '(none)'} (${state})\n`);
  } catch (error) {
    process.stdout.write(`Schema unknown: the database cannot be read (${error instanceof Error ? error.message : String(error)})\n`);
  }
  return 0;
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        remarks: { type: 'string' },
        scheduled: { type: 'boolean' },
        'dry-run': { type: 'boolean' },
        kek: { type: 'string' },
        yes: { type: 'boolean' },
        tenant: { type: 'string' },
        account: { type: 'string' },
        off: { type: 'boolean' },
        list: { type: 'boolean' },
        name: { type: 'string' },
        // campus sso
        file: { type: 'string' },
        'secret-file': { type: 'string' },
        'secret-stdin': { type: 'boolean' },
        kind: { type: 'string' },
        'name-en-us': { type: 'string' },
        'name-zh-cn': { type: 'string' },
        'name-zh-mo': { type: 'string' },
        'discovery-url': { type: 'string' },
        'client-id': { type: 'string' },
        scopes: { type: 'string' },
        claim: { type: 'string' },
        'server-url': { type: 'string' },
        attribute: { type: 'string' },
        enabled: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n\n${help}`);
  }
  const { positionals, values } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    process.stdout.write(help);
    return command || values.help ? 0 : 2;
  }
  if (rest.length > (command === 'licence' || command === 'sso' ? 2 : command === 'restore' || command === 'admin' || command === 'card-login' ? 1 : 0)) throw new UsageError(`campus ${command} takes no argument "${rest.join(' ')}"\n\n${help}`);
  const config = loadConfig();
  switch (command) {
    case 'backup':
      return backup(config, values);
    case 'restore':
      return restore(config, rest[0], values);
    case 'init':
      return init(config);
    case 'admin':
      if (rest[0] === 'installation-admin') return installationAdmin(config, values);
      if (rest[0] !== 'reset-password') throw new UsageError(`campus admin ${rest[0] ?? ''}: the admin commands are reset-password and installation-admin\n\n${help}`);
      return resetPassword(config, values.tenant, values.account);
    case 'card-login':
      return cardLogin(config, values.tenant, rest[0]);
    case 'licence':
      return licence(config, rest, values);
    case 'sso':
      return sso(config, rest, values);
    case 'migrate':
      return migrate(config, values['dry-run'] === true);
    case 'version':
      return version(config);
    case 'check':
      return check(config);
    default:
      throw new UsageError(`Unknown command "${command}".\n\n${help}`);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError || error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    const words = error instanceof BackupError ? `Backup failed: ${error.message}` : error instanceof RestoreError ? `Restore failed: ${error.message}` : error instanceof LicenceRefused ? error.message : `Failed: ${error instanceof Error ? error.message : String(error)}`;
    process.stderr.write(`${words}\n`);
    process.exit(1);
  },
);
