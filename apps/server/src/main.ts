import { shellVersion } from '@campus/contracts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, describeDatabase, describeTrustProxy, loadConfig } from './config.ts';
import type { Config } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatestNamed } from './db/migrations.ts';
import { withStartLock } from './db/start-lock.ts';
import { isDatabaseUnavailable, isSqliteBusy } from './db/unavailable.ts';
import { armPausePoint } from './lib/pause-points.ts';
import { takeBackup } from './modules/backup/backup-archive.ts';
import { probeWrite } from './lib/storage-watch.ts';
import { buildApp, safeLoggerOptions } from './app.ts';
import { createServices, isDemoInstallation } from './services.ts';
import { demoAccounts, demoCustomerNo, seedDatabase } from './seed/seed.ts';

/**
 * Migrations may rebuild indexes of big tables: on their own connection, without the statement timeout; their
 * statements run once, so none is prepared.
 */
async function migrate(config: Config): Promise<void> {
  const handle = openDatabase({ ...config, databaseStatementTimeoutMs: 0, databasePreparedStatements: false });
  try {
    await migrateToLatestNamed(handle.db, handle.dialect, (name) => logLine(config, 'info', 'database migration applied', { migration: name }));
  } finally {
    await handle.close();
  }
}

const levelNumbers = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;

/**
 * A line of the server's log before (and beside) the request logger: the same JSON shape pino writes, on stdout, so
 * every line of stdout is JSON. What a person needs to read at start-up goes to stderr as text as well.
 */
function logLine(config: Config, level: keyof typeof levelNumbers, msg: string, fields: Record<string, unknown> = {}): void {
  if (config.logLevel === 'silent' || levelNumbers[level] < levelNumbers[config.logLevel]) return;
  process.stdout.write(`${JSON.stringify({ level: levelNumbers[level], time: Date.now(), pid: process.pid, msg, ...fields })}\n`);
}

/**
 * The start-up lines: for a person at a terminal, or at `npm start` outside production, as text on stderr (stdout
 * carries only JSON lines). A production server whose stderr is no terminal writes to the journal or another log
 * collector, which reads both streams: there each line is a JSON line of the log (`startup: true`), warnings at
 * level warn, so a log shipped as JSON holds no line that is not.
 */
function writeBanner(config: Config, lines: string[]): void {
  if (!config.isProduction || process.stderr.isTTY === true) {
    process.stderr.write(`${lines.join('\n')}\n\n`);
    return;
  }
  let level: 'info' | 'warn' = 'info';
  for (const line of lines) {
    if (line === '') {
      level = 'info';
      continue;
    }
    // a warning's own lines follow it until the next empty line
    if (line.startsWith('Warning:')) level = 'warn';
    logLine(config, level, line.trim(), { startup: true });
  }
}

/** Where a production first start leaves the one-time password: readable by the service user (and root) only. */
export const initialPasswordFileName = 'initial-admin-password';

/** How often a start on SQLite tries again when the file is busy (about 9 s of waits in all). */
const sqliteBusyTries = 10;

/**
 * A PostgreSQL that cannot be reached at start (starting with the machine, restarting after a crash) is waited for,
 * 2, 4, 8, 16, then every 30 s, and said so: `work` runs again once it answers. A SQLite file busy with another
 * process's write is tried again a few times. Any other failure stops the start (a SQLite file that cannot be
 * opened is a setting to fix, not something to wait for).
 */
async function onceReachable<T>(config: Config, work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (config.databaseUrl === null) {
        // SQLite: a write of another process on the file (a backup, another node) can outlast busy_timeout when it
        // meets a transaction that began before it; that passes, a file that cannot be opened does not
        if (!isSqliteBusy(error) || attempt >= sqliteBusyTries) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
        continue;
      }
      if (!isDatabaseUnavailable(error)) throw error;
      const seconds = Math.min(30, 2 ** attempt);
      process.stderr.write(`The database cannot be reached (${error instanceof Error ? error.message : String(error)}): trying again in ${seconds} s\n`);
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    }
  }
}

/** Why the server cannot write in its data folder (made when missing, for the user only), or null when it can. */
function dataDirWriteProblem(dataDir: string): string | null {
  let problem: NodeJS.ErrnoException | null;
  try {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    problem = probeWrite(dataDir);
  } catch (error) {
    problem = error as NodeJS.ErrnoException;
  }
  return problem === null ? null : `DATA_DIR ${dataDir} is not writable by user ${os.userInfo().username}: ${problem.message}`;
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\nSee apps/server/CONFIG.md for the settings.\n`);
      process.exit(2);
    }
    throw error;
  }

  // a data folder the server cannot write is a setting to fix: one line naming it, not a stack trace later
  const dataDirProblem = dataDirWriteProblem(config.dataDir);
  if (dataDirProblem !== null) {
    process.stderr.write(`${dataDirProblem}\nSee apps/server/CONFIG.md (DATA_DIR).\n`);
    process.exit(2);
  }

  const handle = openDatabase(config);
  const services = createServices(handle, config);
  // nodes started together on a new database: one migrates and seeds, the others then find it done (Kysely takes
  // no migration lock on SQLite)
  const seeded = await onceReachable(config, () =>
    withStartLock(handle, config, async () => {
      await migrate(config);
      const result = await seedDatabase(services, config);
      // the demo's Backup Logs show a real backup of this installation, taken the way the nightly timer takes
      // them; under the start lock, so that nodes started with this one do not start while it writes its row
      if (result.mode === 'demo') {
        await takeBackup(
          { settings: config, db: handle.db, dialect: handle.dialect, backupLogs: services.backupLogs, now: services.now },
          { remarks: 'the demo\'s first backup, taken when it was seeded (npm run campus -- backup takes more)' },
        ).catch((error: unknown) => logLine(config, 'warn', 'the demo\'s first backup failed', { problem: error instanceof Error ? error.message : String(error) }));
      }
      return result;
    }),
  );
  // an entry for a folder no system uses is never loaded: say so rather than ignore it
  const unknownEntries = await services.subApps.unknownEntries();

  const app = await buildApp({ db: handle, config, logger: { ...safeLoggerOptions, level: config.logLevel } });
  handle.onConnectionLost = (error) => app.log.warn({ err: error }, 'database connection lost (the pool opens a new one when needed)');
  // the crash-test seam (NODE_ENV=test only): armed after the seed, whose demo licence activation passes a point
  armPausePoint(config.testPauseAt);
  await app.listen({ host: config.host, port: config.port });

  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const lines = [
    '',
    `Campus shell server: http://${shownHost}:${port}/`,
    `Database: ${describeDatabase(config)}`,
    `Proxies: ${describeTrustProxy(config)}`,
  ];
  if (!config.isProduction) lines.push(`API description: http://${shownHost}:${port}/docs`);
  if (config.licenceTrustFile === null && (await isDemoInstallation(handle))) {
    lines.push("Licences: the repository's TEST vendor keys are trusted, because this database holds the demo (never in a real deployment: set LICENCE_TRUST_FILE)");
  }
  if (seeded.mode === 'production') {
    // never in the log or the journal: a file only the service user (and root) reads
    const passwordFile = path.join(config.dataDir, initialPasswordFileName);
    try {
      fs.writeFileSync(passwordFile, `tenant ${seeded.admin.tenantCode}\naccount ${seeded.admin.account}\npassword ${seeded.admin.password}\n`, { mode: 0o600, flag: 'w' });
      fs.chmodSync(passwordFile, 0o600);
      lines.push('', `First start: created the system administrator; its one-time password is in ${passwordFile} (change it at first sign-in, then delete the file).`);
      logLine(config, 'warn', 'first start: system administrator created', { tenant: seeded.admin.tenantCode, account: seeded.admin.account, passwordFile });
    } catch (error) {
      // the administrator exists now, so a restart will not make another password: say how to get one
      try {
        fs.unlinkSync(passwordFile); // what part of it was written
      } catch {
        // nothing was, or it is not a file of ours
      }
      const why = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
      logLine(config, 'error', `first start: the one-time password could not be written to ${passwordFile} (${why}); once that is fixed, give the administrator a new one: campus admin reset-password --tenant ${seeded.admin.tenantCode} --account ${seeded.admin.account}`, { passwordFile });
    }
  } else if (!config.isProduction) {
    lines.push('', 'Demo accounts (account / password / tenants):');
    for (const a of demoAccounts) lines.push(`  ${a.account.padEnd(9)} ${a.password.padEnd(14)} ${a.tenants.join(', ').padEnd(11)} ${a.note}`);
    if (config.nationalCrypto) {
      lines.push(
        '',
        `Gate deployment (MJ_SYSTEM ${config.mjSystem}): set it up with cards at http://localhost:${config.port}/system-init`,
        `  customer number ${config.customerNo ?? demoCustomerNo}, customer password Customer#2026 (the demo mother card is on the virtual reader);`,
        `  the reader panel (put cards on it, take them off) is on the card issuer: ${config.cardIssuerUrl}/reader`,
      );
    }
  }
  for (const { folder, entry } of unknownEntries) {
    lines.push('', `Warning: SUBAPP_ENTRIES names the folder "${folder}" (${entry}), which no sub-system uses: it is not loaded.`);
    lines.push('  Check the folder name, or register the sub-system first (npm run subapp -- add <manifest.json>).');
  }
  writeBanner(config, lines);
  logLine(config, 'info', 'server listening', { url: `http://${shownHost}:${port}/`, database: describeDatabase(config), version: shellVersion });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    try {
      await app.close();
    } finally {
      await handle.close();
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`Start-up failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
