import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Every Prometheus metric of the server, counted here; the services call the small functions below. One registry
 * a process (tests build several apps in one process: the counters only grow, the gauges read the latest app's
 * sources). Served at /metrics (http/metrics-route.ts) when METRICS=on.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });
// prom-client names these three gauges like counters (promtool refuses them); each is the sum of its by-type gauge
// without the suffix (nodejs_active_handles{type}, ...), so a dashboard sums those instead
for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) {
  metricsRegistry.removeSingleMetric(name);
}

/** The label values each alerting counter starts at 0 with, so a rate sees 0 before the first event, not no data. */
export const signInKinds = ['password', 'ldap', 'card', 'sso'] as const;
export type SignInKind = (typeof signInKinds)[number];
export const lockoutScopes = ['account', 'address'] as const;
export const databaseErrorKinds = ['unavailable', 'storage_full'] as const;

const requests = new Counter({
  name: 'campus_http_requests_total',
  help: 'Requests answered, by route pattern, method and status class',
  labelNames: ['route', 'method', 'status'] as const,
  registers: [metricsRegistry],
});
const requestSeconds = new Histogram({
  name: 'campus_http_request_duration_seconds',
  help: 'Time to answer a request, by route pattern, method and status class',
  labelNames: ['route', 'method', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});
const signIns = new Counter({
  name: 'campus_sign_ins_total',
  help: 'Successful sign-ins, by kind (password, ldap, card, ...)',
  labelNames: ['kind'] as const,
  registers: [metricsRegistry],
});
const signInFailures = new Counter({
  name: 'campus_sign_in_failures_total',
  help: 'Refused sign-ins, by kind (password, ldap, card, ...)',
  labelNames: ['kind'] as const,
  registers: [metricsRegistry],
});
const lockouts = new Counter({
  name: 'campus_lockouts_total',
  help: 'Accounts or client addresses locked after failed sign-ins',
  labelNames: ['scope'] as const,
  registers: [metricsRegistry],
});
const cardOperations = new Counter({
  name: 'campus_card_operations_total',
  help: 'Card operations, by operation and result',
  labelNames: ['operation', 'result'] as const,
  registers: [metricsRegistry],
});
const databaseErrors = new Counter({
  name: 'campus_database_errors_total',
  help: 'Requests failed by the database or storage, by kind (unavailable, storage_full)',
  labelNames: ['kind'] as const,
  registers: [metricsRegistry],
});

const issuerKeyFetches = new Counter({
  name: 'campus_issuer_key_fetches_total',
  help: 'System key requests of card issuers, by result (trusted, renewed, fetched; refused: challenge, untrusted, expired, revoked, rate_limited)',
  labelNames: ['result'] as const,
  registers: [metricsRegistry],
});
const issuerRevocations = new Counter({
  name: 'campus_issuer_revocations_total',
  help: 'Trusted card issuers revoked by a system administrator',
  registers: [metricsRegistry],
});

export interface ScrapeSources {
  /** Sessions not ended nor expired (one cheap count). */
  activeSessions: () => Promise<number>;
  /** backup_time of the newest Backup Log row (epoch ms); null before the first backup. */
  newestBackupTime: () => Promise<number | null>;
  /** PostgreSQL pool figures; null for SQLite (one connection). */
  pool: () => { total: number; idle: number; waiting: number } | null;
}

let sources: ScrapeSources | null = null;

/** The gauges read these at scrape time (app.ts sets them). */
export function setScrapeSources(next: ScrapeSources): void {
  sources = next;
}

new Gauge({
  name: 'campus_active_sessions',
  help: 'Signed-in sessions in effect (read from the database at scrape time)',
  registers: [metricsRegistry],
  async collect() {
    if (sources !== null) this.set(await sources.activeSessions());
  },
});
new Gauge({
  name: 'campus_backup_newest_timestamp_seconds',
  help: 'When the newest backup of the Backup Log was taken, in seconds since the epoch (0: no backup yet)',
  registers: [metricsRegistry],
  async collect() {
    if (sources !== null) this.set(((await sources.newestBackupTime()) ?? 0) / 1000);
  },
});
new Gauge({
  name: 'campus_database_pool_connections',
  help: 'Database connections by state (PostgreSQL pool: total, idle, waiting clients; SQLite: total 1)',
  labelNames: ['state'] as const,
  registers: [metricsRegistry],
  collect() {
    const pool = sources?.pool() ?? { total: 1, idle: 0, waiting: 0 };
    this.set({ state: 'total' }, pool.total);
    this.set({ state: 'idle' }, pool.idle);
    this.set({ state: 'waiting' }, pool.waiting);
  },
});

for (const kind of signInKinds) {
  signIns.inc({ kind }, 0);
  signInFailures.inc({ kind }, 0);
}
for (const scope of lockoutScopes) lockouts.inc({ scope }, 0);
for (const kind of databaseErrorKinds) databaseErrors.inc({ kind }, 0);

export function countRequest(route: string, method: string, statusCode: number, seconds: number): void {
  const labels = { route, method, status: `${Math.floor(statusCode / 100)}xx` };
  requests.inc(labels);
  requestSeconds.observe(labels, seconds);
}

export function countSignIn(kind: SignInKind, succeeded: boolean): void {
  (succeeded ? signIns : signInFailures).inc({ kind });
}

export function countLockout(scope: (typeof lockoutScopes)[number]): void {
  lockouts.inc({ scope });
}

export function countCardOperation(operation: string, result: 'ok' | 'refused' | 'failed'): void {
  cardOperations.inc({ operation, result });
}

export type IssuerKeyFetchResult = 'trusted' | 'renewed' | 'fetched' | 'challenge' | 'untrusted' | 'expired' | 'revoked' | 'rate_limited';

export function countIssuerKeyFetch(result: IssuerKeyFetchResult): void {
  issuerKeyFetches.inc({ result });
}

export function countIssuerRevocation(): void {
  issuerRevocations.inc();
}

export function countDatabaseError(kind: (typeof databaseErrorKinds)[number]): void {
  databaseErrors.inc({ kind });
}

/**
 * Runs a card operation and counts it: `ok`, `refused` (a business refusal: an error carrying a numeric business
 * code, AppError or a reader code) or `failed` (anything else).
 */
export async function countedCardOperation<T>(operation: string, work: () => Promise<T>): Promise<T> {
  try {
    const result = await work();
    countCardOperation(operation, 'ok');
    return result;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    countCardOperation(operation, typeof code === 'number' ? 'refused' : 'failed');
    throw error;
  }
}
