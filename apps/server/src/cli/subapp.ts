/**
 * The operator's tool for sub-systems of other teams (docs/sub-apps.md "Sub-systems from other teams"):
 * `npm run subapp -- add <manifest.json> [--replace] | remove <code> | grant|revoke <code> --tenant T --account A | list`.
 * It writes the same database as the server (DATABASE_URL, else the SQLite file in DATA_DIR) through the same
 * service as the administrators' call, so both keep one set of rules. Running servers show a change within 30 s.
 */
import fs from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { Value } from 'typebox/value';
import { codeMessage } from '@campus/contracts';
import type { SubAppManifest } from '@campus/contracts';
import { ConfigError, describeDatabase, loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrations.ts';
import { AppError } from '../http/envelope.ts';
import { createServices } from '../services.ts';
import { ManifestSchema } from '../modules/sub-app/sub-app-schemas.ts';
import { appNoRefusal } from '../modules/sub-app/sub-app-manifest.ts';
import type { SubAppActor } from '../modules/sub-app/sub-app-registrations.ts';
import { installationWide } from '../modules/operation-log/operation-log-service.ts';

class UsageError extends Error {}

const help = `Sub-systems of other teams (on the server, with the server's settings: DATABASE_URL or DATA_DIR)

  npm run subapp -- add <manifest.json> [--replace]
      Registers the sub-system the manifest describes (the body of POST /system/api/SubApp/Register: appNo,
      label in en-US/zh-CN/zh-MO, basePath, entry, scriptOrigins, functionCodes, pages). Every system
      administrator gets it; --replace replaces an earlier registration of the same code (a new version).

  npm run subapp -- remove <code>
      Removes a registered sub-system with its menus and grants (never a built-in system).

  npm run subapp -- grant <code> --tenant <tenant code> --account <account> [--function-codes 1,2]
      Gives one account the sub-system (default: all its function codes).

  npm run subapp -- revoke <code> --tenant <tenant code> --account <account>
      Takes the sub-system from one account.

  npm run subapp -- list
      The registered sub-systems, and SUBAPP_ENTRIES items whose folder no system uses.

Running servers show a change within 30 seconds, without a restart; a user sees it at the next page load.
Every act is in the installation-wide operation log (a grant or revoke in the tenant's log as well). Over HTTP
only an installation administrator registers and removes (campus admin installation-admin marks one).
`;

function readManifest(file: string, replace: boolean): SubAppManifest {
  let value: unknown;
  try {
    value = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (replace && typeof value === 'object' && value !== null) value = { ...value, replace: true };
  // a code that is not one: said of the code, as the call says it (issue 48 item 18)
  const refusal = appNoRefusal(value);
  if (refusal) throw new UsageError(`${file}: ${refusal.messageIn('en-US')} (code ${refusal.code})`);
  if (!Value.Check(ManifestSchema, value)) {
    const problems = [...Value.Errors(ManifestSchema, value)].slice(0, 5).map((e) => `  ${e.instancePath || '/'}: ${e.message}`);
    throw new UsageError(`${file} is not a sub-system manifest (the sub-app guide on /tools lists its fields):\n${problems.join('\n')}`);
  }
  return value;
}

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      replace: { type: 'boolean' },
      tenant: { type: 'string' },
      account: { type: 'string' },
      'function-codes': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, argument] = positionals;
  if (values.help || !command) {
    process.stdout.write(help);
    return command || values.help ? 0 : 2;
  }
  const config = loadConfig();
  const handle = openDatabase(config);
  try {
    await migrateToLatest(handle.db, handle.dialect);
    const services = createServices(handle, config);
    // the operator acts for the installation: every act goes to the installation-wide log (a grant or revoke to the
    // tenant's log as well)
    const actor: SubAppActor = { tenantCode: installationWide, account: `cli:${os.userInfo().username}`, clientIp: 'localhost', installation: true };
    const language = 'en-US';
    switch (command) {
      case 'add': {
        if (!argument) throw new UsageError('add needs the manifest file: npm run subapp -- add <manifest.json>');
        const registered = await services.subAppRegistrations.register(readManifest(argument, values.replace === true), actor, language);
        process.stdout.write(`Registered ${registered.appNo} "${registered.label['en-US']}" at /${registered.basePath}/ from ${registered.entry} (${registered.pageCount} menu pages) in ${describeDatabase(config)}.\n`);
        if (registered.scriptOrigins.length > 0) process.stdout.write(`Script origins: ${registered.scriptOrigins.join(', ')}\n`);
        process.stdout.write('Running servers show it within 30 s; system administrators have it, give others access with: npm run subapp -- grant …\n');
        return 0;
      }
      case 'remove': {
        if (!argument) throw new UsageError('remove needs the system code: npm run subapp -- remove <code>');
        await services.subAppRegistrations.remove(argument, actor);
        process.stdout.write(`Removed ${argument} with its menus and grants.\n`);
        return 0;
      }
      case 'grant': {
        if (!argument || !values.tenant || !values.account) throw new UsageError('grant needs the code, --tenant and --account: npm run subapp -- grant <code> --tenant 1001 --account staff');
        const functionCodes = values['function-codes']?.split(',').map((c) => c.trim()).filter(Boolean);
        await services.subAppRegistrations.grant({ appNo: argument, tenantCode: values.tenant, account: values.account, functionCodes }, actor);
        process.stdout.write(`${values.tenant}/${values.account} now has ${argument}.\n`);
        return 0;
      }
      case 'revoke': {
        if (!argument || !values.tenant || !values.account) throw new UsageError('revoke needs the code, --tenant and --account: npm run subapp -- revoke <code> --tenant 1001 --account staff');
        await services.subAppRegistrations.revoke({ appNo: argument, tenantCode: values.tenant, account: values.account }, actor);
        process.stdout.write(`${values.tenant}/${values.account} no longer has ${argument}.\n`);
        return 0;
      }
      case 'list': {
        const registered = await services.subAppRegistrations.list();
        if (registered.length === 0) process.stdout.write('No sub-system is registered.\n');
        for (const r of registered) {
          process.stdout.write(`${r.appNo.padEnd(16)} /${r.basePath}/  ${r.entry}  "${r.label['en-US']}"  ${r.pageCount} pages, registered by ${r.registeredBy} ${new Date(r.registeredAt).toISOString()}\n`);
          if (r.scriptOrigins.length > 0) process.stdout.write(`${''.padEnd(16)} script origins: ${r.scriptOrigins.join(', ')}\n`);
        }
        for (const unknown of await services.subApps.unknownEntries()) {
          process.stdout.write(`Warning: SUBAPP_ENTRIES names the folder "${unknown.folder}" (${unknown.entry}), which no sub-system uses: it is not loaded.\n`);
        }
        return 0;
      }
      default:
        throw new UsageError(`Unknown command "${command}".\n\n${help}`);
    }
  } finally {
    await handle.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof AppError) process.stderr.write(`${codeMessage(error.code, 'en-US', error.values)} (code ${error.code})\n`);
    else if (error instanceof UsageError || error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
    else process.stderr.write(`Failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(error instanceof AppError || error instanceof UsageError || error instanceof ConfigError ? 1 : 2);
  },
);
