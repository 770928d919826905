import { BlockList, isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { httpUrlProblem, subAppEntryProblem } from './lib/sub-app-entry-url.ts';
import { isPausePoint, pausePoints } from './lib/pause-points.ts';
import { parseDevOverrides } from './lib/dev-override-origins.ts';
import { parseProviderNetworks, providerNetworksSetting } from './lib/outbound-addresses.ts';
import type { PausePoint } from './lib/pause-points.ts';
import { customerNoPattern, isGateSystem, localDeviceServicePort, subAppFolderPattern } from '@campus/contracts';

export interface LdapConfig {
  url: string;
  bindDn: string;
  bindPassword: string;
  baseDn: string;
  userFilter: string;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** postgres://… when set; otherwise the SQLite file `sqliteFile` is used. */
  databaseUrl: string | null;
  sqliteFile: string;
  /** DATABASE_CONNECT_TIMEOUT_MS: PostgreSQL, the longest wait for a connection before a request is answered 503. */
  databaseConnectTimeoutMs: number;
  /** DATABASE_STATEMENT_TIMEOUT_MS: PostgreSQL, the longest a statement may run (the database cancels it; 503). */
  databaseStatementTimeoutMs: number;
  /** DATABASE_PREPARED_STATEMENTS: PostgreSQL, named prepared statements (db/prepared-statements.ts). */
  databasePreparedStatements: boolean;
  mjSystem: number;
  nationalCrypto: boolean;
  imageCode: boolean;
  privateDeployment: boolean;
  ldap: LdapConfig | null;
  sessionIdleMinutes: number;
  sessionMaxHours: number;
  shellDist: string;
  nodeEnv: string;
  isProduction: boolean;
  /** Fixed captcha answer; only ever set when NODE_ENV=test. */
  testCaptchaText: string | null;
  /** Milliseconds added to the server's clock; only ever non-zero when NODE_ENV=test (browser tests of licence dates). */
  testClockOffsetMs: number;
  /** The crash-test seam's point (lib/pause-points.ts); only ever set when NODE_ENV=test. */
  testPauseAt: PausePoint | null;
  /** Requests per minute and client address on each sign-in, captcha and tenant-search route. */
  rateLimitPerMinute: number;
  /** Hours a card issuer's trust lasts before the key card (or, in the set-up, the mother card) must renew it. */
  issuerTrustHours: number;
  /** Failed sign-ins from one client address (across accounts) before that address is locked. */
  addressFailureLimit: number;
  /**
   * Which X-Forwarded-For entries to believe: false (none), a hop count (the entry that many proxies back
   * from the connection), or a comma list of the proxies' addresses / CIDR ranges (Fastify's trustProxy).
   */
  trustProxy: false | number | string;
  /** Absolute http(s) address of the operations management platform (private deployments); '' when none. */
  opsPlatformUrl: string;
  /**
   * PUBLIC_URL: this installation's address as browsers and identity providers reach it (an http(s) origin), for the
   * absolute callback addresses of external sign-in (docs/sso.md); '' derives them from each request (TRUST_PROXY).
   */
  publicUrl: string;
  /**
   * SSO_PROVIDER_NETWORKS: the networks (CIDR ranges, addresses) and host names beyond the public internet the server
   * may reach for a tenant's identity provider (lib/outbound-addresses.ts); empty: public addresses only.
   */
  ssoProviderNetworks: readonly string[];
  /** CARD_ISSUER_URL (else http://127.0.0.1:CARD_ISSUER_PORT): the local card issuer the browser calls (gate deployments), an http(s) origin. */
  cardIssuerUrl: string;
  /** ISSUER_DOWNLOADS_DIR: where `npm run build:issuer` put the card issuer downloads offered under /tools on gate deployments. */
  issuerDownloadsDir: string;
  /**
   * Where the build put the sub-app SDK's package and guide (scripts/pack-subapp-sdk.mjs), offered under /tools on
   * every deployment. Not an environment variable: it ships with the product (dist/subapp-sdk of the release).
   */
  sdkDownloadsDir: string;
  /**
   * The guide for the operator's PC (docs/operator-pc.md), offered under /tools beside the card issuer downloads on
   * gate deployments. Not an environment variable: the release carries docs/ (scripts/release.mjs).
   */
  operatorGuideFile: string;
  /** Sub-app builds of this deployment, served at /subapps/<folder>/ (SUBAPPS_DIR). */
  subAppsDir: string;
  /**
   * Sub-app builds that ship with the server, by folder; a folder is served from here unless subAppsDir
   * holds `<folder>/index.html`. Not an environment variable: tests point it elsewhere.
   */
  bundledSubApps: Readonly<Record<string, string>>;
  /** SUBAPP_ENTRIES: entry URL (ending in '/') by folder, replacing `/subapps/<folder>/` in the registry. */
  subAppEntries: Readonly<Record<string, string>>;
  /** SUBAPP_HTTP_HOSTS: host names a registered sub-system may load from over plain http (loopback always may). */
  subAppHttpHosts: readonly string[];
  /** SUBAPP_DEV_OVERRIDES: origin patterns a developer's browser may load one sub-app from instead of its build (empty: off). */
  subAppDevOverrides: readonly string[];
  /** CUSTOMER_NO: this installation's customer number (1–8 digits, no leading zero); null keeps the stored one. */
  customerNo: string | null;
  /** LICENCE_TRUST_FILE: vendor public keys by kid; null trusts the repository's test keys outside production, none in it. */
  licenceTrustFile: string | null;
  /** DEMO_LICENCE: whether the demo seed adds and activates the demo licence (default on). */
  demoLicence: boolean;
  /** DEMO_CARDS: whether initialising a demo gate installation adds the demo's card history (default off; `npm start` turns it on for a gate demo). */
  demoCards: boolean;
  /** SYSTEM_KEY_KEK_FILE: the key-encryption key of the gate system key (default `<data>/system-key.kek`; docs/cards.md). */
  systemKeyKekFile: string;
  /** BACKUP_DIR: where `campus backup` writes its archives and the KEK copies beside them (default `<data>/backups`). */
  backupDir: string;
  /** BACKUP_RETENTION_DAYS: how long a backup is kept; each backup removes the ones past theirs. */
  backupRetentionDays: number;
  /** LOG_LEVEL: the least severe log line written (fatal … trace, or silent); default info. */
  logLevel: LogLevel;
  /** METRICS: whether /metrics answers (default off). */
  metrics: boolean;
  /** Who may read /metrics: loopback always, plus METRICS_ALLOW's addresses / CIDR ranges. */
  metricsAllow: readonly string[];
}

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

/** LOG_LEVEL: one of logLevels (any case). */
function logLevelVar(env: Env, name: string): LogLevel {
  const raw = textVar(env, name);
  if (raw === null) return 'info';
  const value = raw.toLowerCase();
  const found = logLevels.find((level) => level === value);
  if (found === undefined) throw new ConfigError(name, `must be one of ${logLevels.join(', ')}, got "${raw}"`);
  return found;
}

/** Loopback callers: what METRICS_ALLOW defaults to (never open to the internet by default). */
export const loopbackAddresses = ['127.0.0.1', '::1'] as const;

/** METRICS_ALLOW: comma list of addresses / CIDR ranges, parsed like TRUST_PROXY's list; added to `always`. */
function addressListVar(env: Env, name: string, always: readonly string[]): readonly string[] {
  const raw = textVar(env, name);
  if (raw === null) return always;
  const items = raw.split(',').map((item) => item.trim());
  const bad = items.find((item) => !isAddressOrRange(item));
  if (bad !== undefined) throw new ConfigError(name, `must be addresses / CIDR ranges separated by commas; "${bad}" is none of these`);
  return [...new Set([...always, ...items])];
}

export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The repository root, resolved from this file's own location (apps/server/src/config.ts). */
export const repoRoot = path.resolve(serverRoot, '..', '..');

type Env = Record<string, string | undefined>;

function intVar(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw.trim());
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function switchVar(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = raw.trim().toLowerCase();
  if (['on', 'true', '1', 'yes'].includes(value)) return true;
  if (['off', 'false', '0', 'no'].includes(value)) return false;
  throw new ConfigError(name, `must be "on" or "off", got "${raw}"`);
}

function textVar(env: Env, name: string): string | null {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? null : raw.trim();
}

/** An address, or an address range as address/prefix (IPv4 /0–32, IPv6 /0–128). */
function isAddressOrRange(item: string): boolean {
  const [address = '', prefix, ...rest] = item.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: `off` (default: the connection's address is the client), a number of proxy hops in front of
 * the server (`on` is 1), or the proxies' addresses / ranges, comma-separated. Trusting every hop (what a
 * plain `true` means to Fastify) would take the client's own first X-Forwarded-For entry: never offered.
 */
function trustProxyVar(env: Env, name: string): false | number | string {
  const raw = textVar(env, name);
  if (raw === null) return false;
  const value = raw.toLowerCase();
  if (['off', 'false', 'no', '0'].includes(value)) return false;
  if (['on', 'true', 'yes'].includes(value)) return 1;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 10) throw new ConfigError(name, `must be at most 10 proxy hops, got ${hops}`);
    return hops;
  }
  const items = raw.split(',').map((item) => item.trim());
  const bad = items.find((item) => !isAddressOrRange(item));
  if (bad !== undefined) {
    throw new ConfigError(name, `must be off, a number of proxy hops, or proxy addresses / ranges separated by commas; "${bad}" is none of these`);
  }
  return items.join(',');
}

/** Whether HOST takes connections from this machine only (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  if (host.toLowerCase() === 'localhost') return true;
  const loopback = new BlockList();
  loopback.addSubnet('127.0.0.0', 8, 'ipv4');
  loopback.addAddress('::1', 'ipv6');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(host)?.[1];
  if (mapped !== undefined) return loopback.check(mapped, 'ipv4');
  const family = isIP(host);
  return family !== 0 && loopback.check(host, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * A hop count believes the X-Forwarded-For of whoever connects: safe only when nothing but a proxy on this machine
 * can connect. A server that listens on other addresses names the proxies it trusts instead.
 */
function checkTrustProxyReach(trustProxy: false | number | string, host: string): void {
  if (typeof trustProxy !== 'number' || trustProxy === 0 || isLoopbackHost(host)) return;
  throw new ConfigError(
    'TRUST_PROXY',
    `is a number of proxy hops (${trustProxy}) while HOST ${host} takes connections from other machines: any of them could name itself 127.0.0.1 in X-Forwarded-For. Set HOST=127.0.0.1 (the proxy on this machine), or TRUST_PROXY to the proxies' addresses (10.0.0.5,10.0.0.6)`,
  );
}

/**
 * CARD_ISSUER_URL: an http(s) origin (no path). When unset, the issuer on this PC at CARD_ISSUER_PORT, the port
 * `npm start` hands to the issuer as well (apps/card-issuer/src/config.ts), default the spec's 18085: a moved
 * issuer and a server still naming 18085 would send the pairing token to whatever listens there.
 */
function cardIssuerUrlVar(env: Env): string {
  const value = httpUrlVar(env, 'CARD_ISSUER_URL');
  if (value === '') return `http://127.0.0.1:${intVar(env, 'CARD_ISSUER_PORT', localDeviceServicePort, 1, 65535)}`;
  const url = new URL(value);
  if (url.pathname !== '/' || url.search || url.hash) throw new ConfigError('CARD_ISSUER_URL', `must be an origin such as http://127.0.0.1:18085, without a path, got "${value}"`);
  return url.origin;
}

/** PUBLIC_URL: '' or an http(s) origin (no path, query or fragment). */
function publicUrlVar(env: Env): string {
  const value = httpUrlVar(env, 'PUBLIC_URL');
  if (value === '') return '';
  const url = new URL(value);
  if (url.pathname !== '/' || url.search || url.hash) throw new ConfigError('PUBLIC_URL', `must be an origin such as https://campus.example.edu, without a path, got "${value}"`);
  return url.origin;
}

/** '' or an absolute http(s) URL without credentials (it is handed to every browser). */
function httpUrlVar(env: Env, name: string): string {
  const value = textVar(env, name);
  if (value === null) return '';
  const found = httpUrlProblem(value);
  if (found === null) return value;
  throw new ConfigError(name, found.credentials ? found.problem : `${found.problem} (or empty), got "${value}"`);
}

/**
 * SUBAPP_ENTRIES: comma-separated `folder=url`. The url is a path on this server or an absolute http(s)
 * URL without credentials, ending in '/' (the folder of the entry's index.html), without query or fragment.
 */
function subAppEntriesVar(env: Env, name: string): Record<string, string> {
  const raw = textVar(env, name);
  const entries: Record<string, string> = {};
  if (raw === null) return entries;
  const folderPattern = new RegExp(subAppFolderPattern);
  for (const rawItem of raw.split(',')) {
    const item = rawItem.trim();
    const split = item.indexOf('=');
    const folder = split < 0 ? item : item.slice(0, split).trim();
    const url = split < 0 ? '' : item.slice(split + 1).trim();
    const bad = (problem: string, shown = item) => new ConfigError(name, `item "${shown}" ${problem}`);
    if (split < 0) throw bad('must be folder=url');
    if (!folderPattern.test(folder)) throw bad(`has a folder that does not match ${subAppFolderPattern}`);
    if (Object.hasOwn(entries, folder)) throw bad('names a folder that an earlier item named');
    const found = subAppEntryProblem(url);
    // an item with credentials is not repeated in the message
    if (found) throw bad(found.problem, found.credentials ? `${folder}=…` : item);
    entries[folder] = url;
  }
  return entries;
}

/**
 * SUBAPP_HTTP_HOSTS: comma-separated host names or addresses (no scheme, port or wildcard), lowercase as a URL
 * has them; an IPv6 address in brackets, as in a URL.
 */
/** SUBAPP_DEV_OVERRIDES: off (default), on (loopback origins) or a comma list of origin patterns (lib/dev-override-origins.ts). */
function devOverridesVar(env: Env, name: string): readonly string[] {
  const parsed = parseDevOverrides(textVar(env, name));
  if ('problem' in parsed) throw new ConfigError(name, `must be off, on or origins separated by commas; "${parsed.item}" ${parsed.problem}`);
  return parsed.origins;
}

function hostListVar(env: Env, name: string): readonly string[] {
  const raw = textVar(env, name);
  if (raw === null) return [];
  const hosts = raw.split(',').map((item) => item.trim().toLowerCase());
  for (const host of hosts) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(`http://${host}`);
    } catch {
      // not a host name
    }
    if (host.includes('*') || parsed === null || parsed.hostname !== host || parsed.port !== '') {
      throw new ConfigError(name, `must be host names or addresses separated by commas, without scheme, port or wildcard; "${host}" is not one`);
    }
  }
  return [...new Set(hosts)];
}

/** SSO_PROVIDER_NETWORKS: comma-separated addresses, address/prefix ranges and host names (lowercase). */
function providerNetworksVar(env: Env): readonly string[] {
  const raw = textVar(env, providerNetworksSetting);
  if (raw === null) return [];
  const parsed = parseProviderNetworks(raw);
  if ('problem' in parsed) {
    throw new ConfigError(providerNetworksSetting, `must be addresses, address/prefix ranges or host names separated by commas (10.0.0.0/8,cas.campus.local); "${parsed.item}" ${parsed.problem}`);
  }
  return parsed.items;
}

/** Reads the configuration from environment variables (documented in apps/server/CONFIG.md). */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const nodeEnv = textVar(env, 'NODE_ENV') ?? 'development';
  const port = intVar(env, 'PORT', 6300, 0, 65535);
  const host = textVar(env, 'HOST') ?? '0.0.0.0';
  const dataDir = path.resolve(cwd, textVar(env, 'DATA_DIR') ?? './data');
  const trustProxy = trustProxyVar(env, 'TRUST_PROXY');
  checkTrustProxyReach(trustProxy, host);

  const databaseUrl = textVar(env, 'DATABASE_URL');
  if (databaseUrl !== null) {
    let parsed: URL;
    try {
      parsed = new URL(databaseUrl);
    } catch {
      throw new ConfigError('DATABASE_URL', 'is not a valid URL (expected postgres://user@host:port/database)');
    }
    if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
      throw new ConfigError('DATABASE_URL', `must start with postgres:// (got ${parsed.protocol}//…)`);
    }
  }

  const mjSystem = intVar(env, 'MJ_SYSTEM', 1, 0, 99);

  const ldapUrl = textVar(env, 'LDAP_URL');
  let ldap: LdapConfig | null = null;
  if (ldapUrl !== null) {
    if (!/^ldaps?:\/\//i.test(ldapUrl)) throw new ConfigError('LDAP_URL', `must start with ldap:// or ldaps://, got "${ldapUrl}"`);
    const baseDn = textVar(env, 'LDAP_BASE_DN');
    if (baseDn === null) throw new ConfigError('LDAP_BASE_DN', 'is required when LDAP_URL is set');
    const userFilter = textVar(env, 'LDAP_USER_FILTER') ?? '(uid={account})';
    if (!userFilter.includes('{account}') || !userFilter.startsWith('(') || !userFilter.endsWith(')')) {
      throw new ConfigError('LDAP_USER_FILTER', `must be a parenthesised LDAP filter containing {account}, got "${userFilter}"`);
    }
    ldap = {
      url: ldapUrl,
      bindDn: textVar(env, 'LDAP_BIND_DN') ?? '',
      bindPassword: env.LDAP_BIND_PASSWORD ?? '',
      baseDn,
      userFilter,
    };
  }

  const testCaptchaText = textVar(env, 'TEST_CAPTCHA_TEXT');
  if (testCaptchaText !== null) {
    if (nodeEnv !== 'test') {
      throw new ConfigError('TEST_CAPTCHA_TEXT', `is only allowed when NODE_ENV=test (NODE_ENV is "${nodeEnv}"); unset it`);
    }
    if (!/^[A-Za-z0-9]{4,6}$/.test(testCaptchaText)) throw new ConfigError('TEST_CAPTCHA_TEXT', 'must be 4 to 6 letters or digits');
  }

  const clockOffset = textVar(env, 'TEST_CLOCK_OFFSET_MS');
  if (clockOffset !== null) {
    if (nodeEnv !== 'test') {
      throw new ConfigError('TEST_CLOCK_OFFSET_MS', `is only allowed when NODE_ENV=test (NODE_ENV is "${nodeEnv}"); unset it`);
    }
    if (!/^-?\d{1,13}$/.test(clockOffset)) throw new ConfigError('TEST_CLOCK_OFFSET_MS', `must be a whole number of milliseconds, got "${clockOffset}"`);
  }

  const pauseAt = textVar(env, 'TEST_PAUSE_AT');
  if (pauseAt !== null) {
    if (nodeEnv !== 'test') throw new ConfigError('TEST_PAUSE_AT', `is only allowed when NODE_ENV=test (NODE_ENV is "${nodeEnv}"); unset it`);
    if (!isPausePoint(pauseAt)) throw new ConfigError('TEST_PAUSE_AT', `must name one of ${pausePoints.join(', ')}, got "${pauseAt}"`);
  }

  const customerNo = textVar(env, 'CUSTOMER_NO');
  if (customerNo !== null && !customerNoPattern.test(customerNo)) {
    throw new ConfigError('CUSTOMER_NO', `must be 1 to 8 digits without a leading zero, got "${customerNo}"`);
  }
  const licenceTrustFile = textVar(env, 'LICENCE_TRUST_FILE');

  return {
    port,
    host,
    dataDir,
    databaseUrl,
    sqliteFile: path.join(dataDir, 'campus.db'),
    databaseConnectTimeoutMs: intVar(env, 'DATABASE_CONNECT_TIMEOUT_MS', 5_000, 100, 600_000),
    databaseStatementTimeoutMs: intVar(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 15_000, 100, 3_600_000),
    databasePreparedStatements: switchVar(env, 'DATABASE_PREPARED_STATEMENTS', true),
    mjSystem,
    nationalCrypto: isGateSystem(mjSystem),
    imageCode: switchVar(env, 'IMAGE_CODE', true),
    privateDeployment: switchVar(env, 'PRIVATE_DEPLOYMENT', false),
    ldap,
    sessionIdleMinutes: intVar(env, 'SESSION_IDLE_MINUTES', 120, 1, 60 * 24 * 30),
    sessionMaxHours: intVar(env, 'SESSION_MAX_HOURS', 12, 1, 24 * 365),
    shellDist: path.resolve(cwd, textVar(env, 'SHELL_DIST') ?? path.join(repoRoot, 'apps', 'shell', 'dist')),
    nodeEnv,
    isProduction: nodeEnv === 'production',
    testCaptchaText,
    testClockOffsetMs: clockOffset === null ? 0 : Number(clockOffset),
    testPauseAt: pauseAt !== null && isPausePoint(pauseAt) ? pauseAt : null,
    rateLimitPerMinute: intVar(env, 'RATE_LIMIT_PER_MINUTE', 60, 1, 1_000_000),
    issuerTrustHours: intVar(env, 'ISSUER_TRUST_HOURS', 10, 1, 24 * 31),
    addressFailureLimit: intVar(env, 'LOGIN_ADDRESS_FAILURE_LIMIT', 20, 1, 1_000_000),
    trustProxy,
    opsPlatformUrl: httpUrlVar(env, 'OPS_PLATFORM_URL'),
    cardIssuerUrl: cardIssuerUrlVar(env),
    publicUrl: publicUrlVar(env),
    ssoProviderNetworks: providerNetworksVar(env),
    issuerDownloadsDir: path.resolve(cwd, textVar(env, 'ISSUER_DOWNLOADS_DIR') ?? path.join(repoRoot, 'dist', 'card-issuer')),
    sdkDownloadsDir: path.join(repoRoot, 'dist', 'subapp-sdk'),
    operatorGuideFile: path.join(repoRoot, 'docs', 'operator-pc.md'),
    subAppsDir: path.resolve(cwd, textVar(env, 'SUBAPPS_DIR') ?? path.join(dataDir, 'subapps')),
    bundledSubApps: { qy: path.join(repoRoot, 'apps', 'subapp-qy', 'dist') },
    subAppEntries: subAppEntriesVar(env, 'SUBAPP_ENTRIES'),
    subAppHttpHosts: hostListVar(env, 'SUBAPP_HTTP_HOSTS'),
    subAppDevOverrides: devOverridesVar(env, 'SUBAPP_DEV_OVERRIDES'),
    customerNo,
    licenceTrustFile: licenceTrustFile === null ? null : path.resolve(cwd, licenceTrustFile),
    demoLicence: switchVar(env, 'DEMO_LICENCE', true),
    demoCards: switchVar(env, 'DEMO_CARDS', false),
    systemKeyKekFile: path.resolve(cwd, textVar(env, 'SYSTEM_KEY_KEK_FILE') ?? path.join(dataDir, 'system-key.kek')),
    logLevel: logLevelVar(env, 'LOG_LEVEL'),
    backupDir: path.resolve(cwd, textVar(env, 'BACKUP_DIR') ?? path.join(dataDir, 'backups')),
    backupRetentionDays: intVar(env, 'BACKUP_RETENTION_DAYS', 14, 1, 3650),
    metrics: switchVar(env, 'METRICS', false),
    metricsAllow: addressListVar(env, 'METRICS_ALLOW', loopbackAddresses),
  };
}

/** Whose X-Forwarded-For is believed, for the start-up banner. */
export function describeTrustProxy(config: Pick<Config, 'trustProxy' | 'host'>): string {
  if (config.trustProxy === false) return 'no proxy trusted: the client address is the connection\'s (TRUST_PROXY off)';
  if (typeof config.trustProxy === 'number') {
    return `X-Forwarded-For believed ${config.trustProxy} hop(s) back, from any caller (HOST ${config.host} takes connections from this machine only)`;
  }
  return `X-Forwarded-For believed only on connections from ${config.trustProxy.split(',').join(', ')}`;
}

/** The database in use, for the start-up banner: never the password of DATABASE_URL. */
export function describeDatabase(config: Config): string {
  if (config.databaseUrl === null) return `SQLite ${config.sqliteFile}`;
  const url = new URL(config.databaseUrl);
  if (url.password) url.password = '***';
  return `PostgreSQL ${url.toString()}`;
}
