import { ConfigError, describeDatabase, loadConfig } from './config.ts';
import type { Config } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrations.ts';
import { withStartLock } from './db/start-lock.ts';
import { isDatabaseUnavailable } from './db/unavailable.ts';
import { armPausePoint } from './lib/pause-points.ts';
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
    await migrateToLatest(handle.db, handle.dialect);
  } finally {
    await handle.close();
  }
}

/**
 * A PostgreSQL that cannot be reached at start (starting with the machine, restarting after a crash) is waited for,
 * 2, 4, 8, 16, then every 30 s, and said so: `work` runs again once it answers. Any other failure stops the start
 * (a SQLite file that cannot be opened is a setting to fix, not something to wait for).
 */
async function onceReachable<T>(config: Config, work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (config.databaseUrl === null || !isDatabaseUnavailable(error)) throw error;
      const seconds = Math.min(30, 2 ** attempt);
      process.stderr.write(`The database cannot be reached (${error instanceof Error ? error.message : String(error)}): trying again in ${seconds} s\n`);
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    }
  }
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

  const handle = openDatabase(config);
  const services = createServices(handle, config);
  // nodes started together on a new database: one migrates and seeds, the others then find it done (Kysely takes
  // no migration lock on SQLite)
  const seeded = await onceReachable(config, () =>
    withStartLock(handle, config, async () => {
      await migrate(config);
      return seedDatabase(services, config);
    }),
  );
  // an entry for a folder no system uses is never loaded: say so rather than ignore it
  const unknownEntries = await services.subApps.unknownEntries();

  const app = await buildApp({ db: handle, config, logger: safeLoggerOptions });
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
  ];
  if (!config.isProduction) lines.push(`API description: http://${shownHost}:${port}/docs`);
  if (config.licenceTrustFile === null && (await isDemoInstallation(handle))) {
    lines.push("Licences: the repository's TEST vendor keys are trusted, because this database holds the demo (never in a real deployment: set LICENCE_TRUST_FILE)");
  }
  if (seeded.mode === 'production') {
    lines.push(
      '',
      'First start: created the system administrator (shown this once; change it at first sign-in):',
      `  tenant ${seeded.admin.tenantCode}  account ${seeded.admin.account}  password ${seeded.admin.password}`,
    );
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
  // Written to stdout directly, never through the request logger.
  process.stdout.write(`${lines.join('\n')}\n\n`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    process.stdout.write(`${signal}: shutting down\n`);
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
