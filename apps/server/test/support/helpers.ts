import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Envelope } from '@campus/contracts';
import { loadConfig } from '../../src/config.ts';
import type { Config } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import type { DatabaseHandle } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrations.ts';
import { buildApp } from '../../src/app.ts';
import type { BuildAppOptions } from '../../src/app.ts';
import type { App } from '../../src/http/types.ts';
import { createServices } from '../../src/services.ts';
import { seedDatabase } from '../../src/seed/seed.ts';
import type { SeedResult } from '../../src/seed/seed.ts';

export type DatabaseKind = 'sqlite' | 'postgres';

/** SQLite always; PostgreSQL too when DATABASE_URL is set. */
export const databases: DatabaseKind[] = process.env.DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function tempDir(prefix = 'campus-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A fresh database: a temp SQLite file, or a new PostgreSQL database dropped on cleanup. */
export async function freshDatabase(kind: DatabaseKind, dataDir: string): Promise<{ url: string | null; drop: () => Promise<void> }> {
  if (kind === 'sqlite') return { url: null, drop: async () => undefined };
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('DATABASE_URL is not set');
  const name = `campus_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  void dataDir;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** A fresh database (as freshDatabase) opened on its own data folder, for a migration's test; cleanUp drops it. */
export async function openFreshDatabase(kind: DatabaseKind): Promise<{ handle: DatabaseHandle; cleanUp: () => Promise<void> }> {
  const dataDir = tempDir();
  const database = await freshDatabase(kind, dataDir);
  const handle = openDatabase(loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, ...(database.url ? { DATABASE_URL: database.url } : {}) }, dataDir));
  const cleanUp = async () => {
    await handle.close();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { handle, cleanUp };
}

/** An address of this machine that is not loopback: a caller from it reaches a server on 0.0.0.0 directly. */
export function otherAddress(): string {
  const found = Object.values(os.networkInterfaces())
    .flat()
    .find((item) => item !== undefined && !item.internal && item.family === 'IPv4');
  if (!found) throw new Error('this machine has no IPv4 address besides loopback: the test needs one');
  return found.address;
}

const campusTs = path.resolve(import.meta.dirname, '..', '..', 'src', 'cli', 'campus.ts');

export interface CampusRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `campus <args>` as an operator would, with the installation's settings in `env` (and `input` on stdin). */
export function runCampus(args: string[], env: Record<string, string>, input?: string | Buffer): Promise<CampusRun> {
  return new Promise((resolve, reject) => {
    // node itself by its path: a test may take programs (tar, pg_dump) off the PATH
    const child = spawn(process.execPath, ['--import', 'tsx', campusTs, ...args], { env: { ...process.env, DATABASE_URL: '', ...env }, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    if (input !== undefined) child.stdin?.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface Clock {
  now: () => number;
  advance: (ms: number) => void;
}

export function fakeClock(start = Date.now()): Clock {
  let time = start;
  return { now: () => time, advance: (ms) => { time += ms; } };
}

export interface TestServer {
  url: string;
  app: App;
  handle: DatabaseHandle;
  config: Config;
  clock: Clock;
  /** The next captcha answers (default AB23). */
  captcha: { text: string };
  seed: SeedResult;
  close: () => Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  /** Replaces parts of the configuration read from env (settings with no variable, e.g. bundledSubApps). */
  config?: Partial<Config>;
  ldapClientFactory?: BuildAppOptions['ldapClientFactory'];
  /** Protocol clients of external sign-in that play the identity provider. */
  ssoClients?: BuildAppOptions['ssoClients'];
  logger?: BuildAppOptions['logger'];
  /** Listens on `listen` (default 127.0.0.1) and is called at `callAt`: a caller from another address of this machine. */
  network?: { listen: string; callAt: string };
}

/**
 * Closes a test server and every connection to it. Node's server.close() ends only the keep-alive
 * sockets idle at that moment; one whose last reply was a file stream still finishing would then hold
 * close() for the whole keep-alive timeout (72 s), longer than a test may take.
 */
async function closeApp(app: App): Promise<void> {
  const closing = app.close();
  app.server.closeAllConnections();
  await closing;
}

/** Starts the real app on a loopback port over a fresh, migrated and seeded database. */
export async function startServer(kind: DatabaseKind, options: StartOptions = {}): Promise<TestServer> {
  const dataDir = tempDir();
  const database = await freshDatabase(kind, dataDir);
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    // where it listens (below): a TRUST_PROXY hop count is refused on any other address
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SHELL_DIST: path.join(dataDir, 'no-shell'),
    IMAGE_CODE: 'off',
    RATE_LIMIT_PER_MINUTE: '100000',
    // the test identity providers run on this machine: loopback opened to them (api-sso-networks.test.ts: unset)
    SSO_PROVIDER_NETWORKS: '127.0.0.0/8,::1',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...options.env,
  };
  // like SHELL_DIST: what a build left in the checkout (dist/subapp-sdk after `npm start`) is not the test's
  const config: Config = { ...loadConfig(env, dataDir), sdkDownloadsDir: path.join(dataDir, 'no-sdk-downloads'), ...options.config };
  const handle = openDatabase(config);
  await migrateToLatest(handle.db, handle.dialect);
  const clock = fakeClock();
  const captcha = { text: 'AB23' };
  const seed = await seedDatabase(createServices(handle, config, { now: clock.now }), config);
  const app = await buildApp({
    db: handle,
    config,
    now: clock.now,
    captchaText: () => captcha.text,
    ldapClientFactory: options.ldapClientFactory,
    ssoClients: options.ssoClients,
    logger: options.logger,
  });
  await app.listen({ host: options.network?.listen ?? '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const callAt = options.network?.callAt ?? '127.0.0.1';
  return {
    url: `http://${callAt.includes(':') ? `[${callAt}]` : callAt}:${port}`,
    app,
    handle,
    config,
    clock,
    captcha,
    seed,
    close: async () => {
      await closeApp(app);
      await handle.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Reply<T = unknown> {
  status: number;
  body: Envelope<T>;
  headers: Headers;
  text: string;
}

export interface CallOptions {
  token?: string;
  language?: string;
  headers?: Record<string, string>;
}

export async function call<T = unknown>(server: { url: string }, method: 'GET' | 'POST', urlPath: string, body?: unknown, options: CallOptions = {}): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.token = options.token;
  if (options.language) headers.language = options.language;
  let payload: string | undefined;
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = typeof body === 'string' ? body : JSON.stringify(body);
  }
  const res = await fetch(`${server.url}${urlPath}`, { method, headers, body: payload });
  const text = await res.text();
  let parsed: Envelope<T>;
  try {
    parsed = JSON.parse(text) as Envelope<T>;
  } catch {
    parsed = { code: -1, msg: text, data: undefined as T };
  }
  return { status: res.status, body: parsed, headers: res.headers, text };
}

export const paths = {
  webLogin: '/user/api/v1.0/account/weblogin',
};

export function webLoginBody(account: string, password: string, tenantCode = '1001', verifyModel?: { verifyKey?: string; imageVerifyCode?: string }) {
  return { user: { account, password: sha256(password), tenantCode }, ...(verifyModel ? { verifyModel } : {}) };
}

/** Signs in and returns the token (fails the test when sign-in fails). */
export async function signIn(server: { url: string }, account: string, password: string, tenantCode = '1001'): Promise<string> {
  const reply = await call<{ loginInfo: { token: string; tenantCode: string } }>(server, 'POST', paths.webLogin, webLoginBody(account, password, tenantCode));
  if (reply.body.code !== 0) throw new Error(`sign-in of ${account} failed: ${reply.body.code} ${reply.body.msg}`);
  return reply.body.data.loginInfo.token;
}

/** A fresh captcha for a verify key (the answer is server.captcha.text). */
export async function newCaptcha(server: TestServer, key = `key-${randomBytes(6).toString('hex')}`): Promise<{ verifyKey: string; imageVerifyCode: string }> {
  const reply = await call(server, 'GET', `/auth/api/verifyCode/getimage?verifyKey=${key}`);
  if (reply.body.code !== 0) throw new Error(`captcha failed: ${reply.text}`);
  return { verifyKey: key, imageVerifyCode: server.captcha.text };
}

/** Row counts that a rejected request must leave unchanged. */
export async function counts(server: TestServer): Promise<{ sessions: number; failures: number; failureSum: number; logs: number }> {
  const db = server.handle.db;
  const n = async (table: 'sessions' | 'login_failures' | 'operation_logs') =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await db.selectFrom('login_failures').select(['failures', 'lock_count']).execute();
  return {
    sessions: await n('sessions'),
    failures: await n('login_failures'),
    failureSum: rows.reduce((sum, r) => sum + Number(r.failures) * 100 + Number(r.lock_count), 0),
    logs: await n('operation_logs'),
  };
}

/**
 * A second server process on the database of `first` (its own connection pool, no seeding), as a
 * second node of one installation would be.
 */
/** A second server process on the same database (configuration changes, such as another KEK file, optional). */
export async function attachServer(first: TestServer, config: Partial<Config> = {}, options: Pick<BuildAppOptions, 'ssoClients'> = {}): Promise<{ url: string; handle: DatabaseHandle; close: () => Promise<void> }> {
  const handle = openDatabase(first.config);
  await migrateToLatest(handle.db, handle.dialect);
  const app = await buildApp({ db: handle, config: { ...first.config, ...config }, now: first.clock.now, captchaText: () => first.captcha.text, ssoClients: options.ssoClients });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    handle,
    close: async () => {
      await closeApp(app);
      await handle.close();
    },
  };
}
