/**
 * The vendor's licence tool (docs/licences.md): `npm run licence -- keygen | issue | verify | --help`.
 * It writes and reads `.lic` files through the server's own format module, so both agree by construction.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { licenceAlgorithms, licenceCalendarUtcDiff, licenceLimits } from '@campus/contracts';
import type { LicenceAlgorithm, LicenceDeviceLimit, LicencePayload } from '@campus/contracts';
import { LicenceFormatError, checkSignature, generateKeyPair, kidPattern, issueLicenceFile, licenceCodePattern, parseLicenceFile, readPayload } from '../modules/licence/licence-file.ts';
import type { SigningKey } from '../modules/licence/licence-file.ts';
import { readTrustFile, testTrustFile } from '../modules/licence/licence-trust.ts';
import { systems } from '../seed/catalogue.ts';
import { customerNoPattern } from '@campus/contracts';

class UsageError extends Error {}

const help = `Campus shell licence tool (vendor side)

  npm run licence -- keygen --alg Ed25519|SM2 --kid <id> --out <dir>
      Makes a signing key pair: <dir>/<kid>.private.json (keep it secret) and <dir>/<kid>.trust.json
      (the public key, to merge into the trust file of LICENCE_TRUST_FILE).

  npm run licence -- issue --key <private key file> --customer-no <1-8 digits> --customer-name <text>
      --package <product package> --begin YYYY-MM-DD|follow --end YYYY-MM-DD|follow
      --employees <N>|unlimited --apps <qy,kq,…>|all [--formal|--trial] [--mobile] [--openapi]
      [--device "name:count|unlimited[:YYYY-MM-DD:YYYY-MM-DD]"]… [--edition <name>] [--code <code>]
      --out <file.lic>
      Issues a signed licence. Dates are calendar days on the campus clock (UTC+08:00): the licence
      begins at 00:00:00 of --begin and ends at 23:59:59.999 of --end; "follow" follows the system
      permission. The end year 2099 means permanent. Formal is the default.

  npm run licence -- verify <file.lic> [--trust <trust file>]
      Checks a licence's signature against a trust file (default: LICENCE_TRUST_FILE, else the
      repository's test keys) and prints what it grants. Exit code 1 when it does not verify.

Applications: ${systems.map((s) => s.appNo).join(', ')}.
`;

/** The licence calendar (UTC+08:00): dates are its days. */
const campusOffsetMs = licenceCalendarUtcDiff * 60_000;

function day(value: string, option: string, endOfDay: boolean): number | null {
  if (value === 'follow') return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const [y, m, d] = (match ?? []).slice(1).map(Number);
  if (!match || y === undefined || m === undefined || d === undefined) throw new UsageError(`${option} must be YYYY-MM-DD or "follow", got "${value}"`);
  const start = Date.UTC(y, m - 1, d);
  const date = new Date(start);
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) throw new UsageError(`${option} is not a calendar date: "${value}"`);
  return start - campusOffsetMs + (endOfDay ? 86_400_000 - 1 : 0);
}

function required(values: Record<string, unknown>, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v.trim() === '') throw new UsageError(`--${name} is required`);
  return v.trim();
}

function readSigningKey(file: string): SigningKey {
  let value: unknown;
  try {
    value = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
  } catch (error) {
    throw new UsageError(`--key: cannot read ${file} as JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const key = value as Partial<SigningKey> | null;
  if (!key || typeof key.kid !== 'string' || typeof key.privateKey !== 'string' || !(licenceAlgorithms as readonly string[]).includes(String(key.alg))) {
    throw new UsageError(`--key: ${file} is not a key file made by "keygen" ({alg, kid, privateKey, publicKey})`);
  }
  return { alg: key.alg as LicenceAlgorithm, kid: key.kid, privateKey: key.privateKey };
}

function device(spec: string): LicenceDeviceLimit {
  const [name, count, begin, end, ...rest] = spec.split(':');
  if (!name || count === undefined || rest.length > 0 || (begin === undefined) !== (end === undefined)) {
    throw new UsageError(`--device must be "name:count[:YYYY-MM-DD:YYYY-MM-DD]", got "${spec}"`);
  }
  const parsedCount = count === 'unlimited' ? licenceLimits.unlimitedDevices : /^\d{1,7}$/.test(count) ? Number(count) : NaN;
  if (Number.isNaN(parsedCount)) throw new UsageError(`--device count must be a whole number or "unlimited", got "${count}"`);
  return {
    deviceName: name,
    count: parsedCount,
    beginTime: begin === undefined ? null : day(begin, '--device begin', false),
    endTime: end === undefined ? null : day(end, '--device end', true),
    remarks: '',
  };
}

function keygen(args: string[]): void {
  const { values } = parseArgs({ args, options: { alg: { type: 'string' }, kid: { type: 'string' }, out: { type: 'string' } }, strict: true, allowPositionals: false });
  const alg = required(values, 'alg');
  if (!(licenceAlgorithms as readonly string[]).includes(alg)) throw new UsageError(`--alg must be Ed25519 or SM2, got "${alg}"`);
  const kid = required(values, 'kid');
  if (!kidPattern.test(kid)) throw new UsageError('--kid must be 1 to 64 letters, digits, ".", "_" or "-"');
  const out = path.resolve(required(values, 'out'));
  const privateFile = path.join(out, `${kid}.private.json`);
  if (fs.existsSync(privateFile)) throw new UsageError(`${privateFile} exists: choose another --kid or --out (keys are never overwritten)`);
  const pair = generateKeyPair(alg as LicenceAlgorithm);
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(privateFile, `${JSON.stringify({ alg, kid, privateKey: pair.privateKey, publicKey: pair.publicKey }, null, 2)}\n`, { mode: 0o600 });
  const trustFile = path.join(out, `${kid}.trust.json`);
  fs.writeFileSync(trustFile, `${JSON.stringify({ [kid]: { alg, publicKey: pair.publicKey } }, null, 2)}\n`);
  console.log(`private key: ${privateFile} (keep it secret)\ntrust entry: ${trustFile}`);
}

function issue(args: string[]): void {
  const { values } = parseArgs({
    args,
    options: {
      key: { type: 'string' },
      'customer-no': { type: 'string' },
      'customer-name': { type: 'string' },
      package: { type: 'string' },
      begin: { type: 'string' },
      end: { type: 'string' },
      employees: { type: 'string' },
      apps: { type: 'string' },
      formal: { type: 'boolean' },
      trial: { type: 'boolean' },
      mobile: { type: 'boolean' },
      openapi: { type: 'boolean' },
      device: { type: 'string', multiple: true },
      edition: { type: 'string' },
      code: { type: 'string' },
      out: { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const key = readSigningKey(required(values, 'key'));
  const customerNo = required(values, 'customer-no');
  if (!customerNoPattern.test(customerNo)) throw new UsageError(`--customer-no must be 1 to 8 digits without a leading zero, got "${customerNo}"`);
  const customerName = required(values, 'customer-name');
  const prdPkgCategory = required(values, 'package');
  if (values.formal && values.trial) throw new UsageError('--formal and --trial exclude each other');
  const beginTime = day(required(values, 'begin'), '--begin', false);
  const endTime = day(required(values, 'end'), '--end', true);
  if (beginTime !== null && endTime !== null && endTime < beginTime) throw new UsageError('--end is before --begin');
  const employees = required(values, 'employees');
  const empCount = employees === 'unlimited' ? licenceLimits.unlimitedEmployees : /^\d{1,7}$/.test(employees) ? Number(employees) : NaN;
  if (Number.isNaN(empCount) || empCount < 1) throw new UsageError(`--employees must be a whole number from 1 or "unlimited", got "${employees}"`);
  const appList = required(values, 'apps');
  const appIds = appList === 'all' ? systems.map((s) => s.appNo) : appList.split(',').map((a) => a.trim());
  const unknown = appIds.filter((a) => !systems.some((s) => s.appNo === a));
  if (unknown.length > 0 || appIds.length === 0) throw new UsageError(`--apps holds unknown applications: ${unknown.join(', ')} (known: ${systems.map((s) => s.appNo).join(', ')})`);
  if (new Set(appIds).size !== appIds.length) throw new UsageError('--apps names an application twice');
  const code = values.code ?? `LIC-${customerNo}-${randomBytes(4).toString('hex').toUpperCase()}`;
  if (!licenceCodePattern.test(code)) throw new UsageError('--code must be 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit');
  const mobile = values.mobile ?? false;
  const edition = values.edition ?? 'Standard';
  const devices = (values.device ?? []).map(device);
  const payload: LicencePayload = {
    format: 1,
    code,
    customerNo,
    customerName,
    prdPkgCategory,
    isFormal: !values.trial,
    beginTime,
    endTime,
    empCount,
    isHasMobile: mobile,
    isPermitOpenapi: values.openapi ?? false,
    isLimitDevice: devices.length > 0,
    infos: appIds.map((appId) => {
      const s = systems.find((x) => x.appNo === appId);
      return { appId, appName: s?.label['en-US'] ?? appId, editionName: edition, beginTime: null, endTime: null, isHasWeb: true, isHasMobile: mobile };
    }),
    devices,
    issuedAt: Date.now(),
  };
  const out = path.resolve(required(values, 'out'));
  if (!out.endsWith('.lic')) throw new UsageError('--out must name a .lic file');
  fs.writeFileSync(out, issueLicenceFile(payload, key));
  console.log(`issued ${code} for customer ${customerNo} (${key.alg}, key ${key.kid}): ${out}`);
}

function verify(args: string[]): boolean {
  const { values, positionals } = parseArgs({ args, options: { trust: { type: 'string' } }, strict: true, allowPositionals: true });
  if (positionals.length !== 1 || !positionals[0]) throw new UsageError('verify takes one .lic file');
  const trustPath = values.trust ?? (process.env.LICENCE_TRUST_FILE?.trim() || testTrustFile);
  const trust = readTrustFile(path.resolve(trustPath));
  const parsed = parseLicenceFile(fs.readFileSync(positionals[0]));
  const check = checkSignature(parsed, trust);
  if (check !== 'ok') {
    const why = { unknownKey: `key ${parsed.file.kid} is not in ${trustPath}`, wrongAlgorithm: `key ${parsed.file.kid} is not an ${parsed.file.alg} key`, badSignature: 'the signature does not match the content' }[check];
    console.error(`NOT VALID: ${why}`);
    return false;
  }
  const p = readPayload(parsed.payloadBytes);
  const when = (t: number | null) => (t === null ? 'follows the system permission' : new Date(t + campusOffsetMs).toISOString().replace('T', ' ').slice(0, 19) + ' (UTC+08:00)');
  console.log(
    [
      `valid: ${parsed.file.alg} signature by key ${parsed.file.kid}`,
      `code: ${p.code} (${p.isFormal ? 'formal' : 'trial'})`,
      `customer: ${p.customerNo} ${p.customerName}`,
      `package: ${p.prdPkgCategory}`,
      `begins: ${when(p.beginTime)}`,
      `ends: ${when(p.endTime)}`,
      `employees: ${p.empCount === licenceLimits.unlimitedEmployees ? 'unlimited' : p.empCount}`,
      `applications: ${p.infos.map((i) => i.appId).join(', ')}`,
      `mobile: ${p.isHasMobile}, open API: ${p.isPermitOpenapi}, device limits: ${p.devices.map((d) => `${d.deviceName}:${d.count === -1 ? 'unlimited' : d.count}`).join(', ') || 'none'}`,
    ].join('\n'),
  );
  return true;
}

function main(argv: string[]): number {
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === '--help' || command === '-h' || command === 'help' || rest.includes('--help')) {
      console.log(help);
      return command === undefined ? 2 : 0;
    }
    if (command === 'keygen') keygen(rest);
    else if (command === 'issue') issue(rest);
    else if (command === 'verify') return verify(rest) ? 0 : 1;
    else throw new UsageError(`unknown command "${command}"`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof LicenceFormatError || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))) {
      console.error(`licence: ${error.message}\nRun "npm run licence -- --help" for usage.`);
      return 2;
    }
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') {
      console.error(`licence: ${error.message}`);
      return 2;
    }
    throw error;
  }
}

process.exitCode = main(process.argv.slice(2));
