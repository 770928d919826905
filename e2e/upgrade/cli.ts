// The data maker and checker from the command line, for a CI job that runs its own servers (issue 26 item 8):
//   node --import tsx e2e/upgrade/cli.ts make  --base-url <url> --admin <tenant>:<account>:<password> --out <file.json>
//                                              [--licence <file.lic>] [--issuer-url <url> --card-password <pwd>]
//   node --import tsx e2e/upgrade/cli.ts check --base-url <url> --expectation <file.json> [--issuer-url <url>]
// `check` prints each difference (what, expected, got) and exits 1 when there is one.
import { readFileSync, writeFileSync } from 'node:fs';
import { checkData, describeDifferences, makeData, type Expectation } from './upgrade-data.ts';

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  if (index < 0) return undefined;
  const value = args[index + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`${name} needs a value`);
  return value;
}

function required(args: string[], name: string): string {
  const value = option(args, name);
  if (value === undefined) throw new Error(`${name} is required`);
  return value;
}

async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  const baseUrl = required(rest, '--base-url').replace(/\/$/, '');
  const issuerUrl = option(rest, '--issuer-url')?.replace(/\/$/, '');
  if (command === 'make') {
    const [tenantCode, account, ...password] = required(rest, '--admin').split(':');
    if (!tenantCode || !account || password.length === 0) throw new Error('--admin must be <tenant>:<account>:<password>');
    const cardPassword = option(rest, '--card-password');
    if (issuerUrl && !cardPassword) throw new Error('--issuer-url needs --card-password (the super administrator card password to set)');
    const expectation = await makeData({
      baseUrl,
      admin: { tenantCode, account, password: password.join(':') },
      licenceFile: option(rest, '--licence'),
      ...(issuerUrl && cardPassword ? { gate: { issuerUrl, cardPassword } } : {}),
    });
    writeFileSync(required(rest, '--out'), `${JSON.stringify(expectation, null, 2)}\n`, { mode: 0o600 });
    return 0;
  }
  if (command === 'check') {
    const expectation = JSON.parse(readFileSync(required(rest, '--expectation'), 'utf8')) as Expectation;
    const differences = await checkData(expectation, baseUrl, issuerUrl);
    if (differences.length === 0) {
      process.stdout.write(`every expectation holds on ${baseUrl}\n`);
      return 0;
    }
    process.stdout.write(`${differences.length} difference(s) on ${baseUrl}:\n${describeDifferences(differences)}\n`);
    return 1;
  }
  throw new Error(`unknown command ${String(command)}: make or check`);
}

main(process.argv.slice(2)).then((code) => process.exit(code), (error: unknown) => {
  process.stderr.write(`upgrade data: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
});
