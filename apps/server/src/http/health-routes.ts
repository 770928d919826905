import { Type } from 'typebox';
import { apiPaths } from '@campus/contracts';
import type { DatabaseHandle } from '../db/database.ts';
import { pingDatabase } from '../db/database.ts';
import { pendingMigrations } from '../db/migrations.ts';
import { addressAllowList } from '../lib/address-allow.ts';
import type { StorageWatch } from '../lib/storage-watch.ts';
import type { App } from './types.ts';

/** /healthz and /readyz answer 503 when the database has not answered `select 1` within this time. */
const databaseTimeoutMs = 3_000;

export interface HealthDeps {
  db: DatabaseHandle;
  storage: StorageWatch;
  /** Where the database is, for a failing check (never a password). */
  databaseWhere: string;
  /** Callers told the problem and where (config.metricsAllow: loopback plus METRICS_ALLOW); others only which check failed. */
  detailAllow: readonly string[];
}

export interface FailingCheck {
  check: 'database' | 'migrations' | 'dataDir' | 'storage';
  problem: string;
  where: string;
}

/** What a caller outside the allowed addresses hears of a check: no URL, host, user, path or error text. */
const briefProblem: Record<FailingCheck['check'], string> = {
  database: 'unreachable',
  migrations: 'not applied',
  dataDir: 'not writable',
  storage: 'full',
};

const failingCheck = Type.Object({ check: Type.String(), problem: Type.String(), where: Type.Optional(Type.String()) });

/** Every readiness check that fails (none: ready). */
async function failingChecks(deps: HealthDeps): Promise<FailingCheck[]> {
  const failing: FailingCheck[] = [];
  const up = await pingDatabase(deps.db.db, databaseTimeoutMs);
  if (!up) failing.push({ check: 'database', problem: `does not answer within ${databaseTimeoutMs / 1000} s`, where: deps.databaseWhere });
  else {
    try {
      const pending = await pendingMigrations(deps.db.db, deps.db.dialect);
      if (pending.length > 0) failing.push({ check: 'migrations', problem: `not applied yet: ${pending.join(', ')}`, where: deps.databaseWhere });
    } catch (error) {
      failing.push({ check: 'migrations', problem: `cannot be read: ${error instanceof Error ? error.message : String(error)}`, where: deps.databaseWhere });
    }
  }
  const storage = await deps.storage.status();
  if (storage.notWritable !== null) failing.push({ check: 'dataDir', problem: `not writable: ${storage.notWritable}`, where: deps.storage.dataDir });
  if (storage.full !== null) failing.push({ check: 'storage', problem: 'full', where: storage.full });
  return failing;
}

/**
 * /livez: the process answers (no dependency checked: a restart would not fix the database).
 * /readyz: 200 only when the database answers, its migrations are applied and the data folder takes writes and has
 * space; otherwise 503 naming each failing check. /healthz (kept for existing probes): the database answers and
 * the storage is not full.
 */
export function registerHealthRoutes(app: App, deps: HealthDeps): void {
  const toldWhere = addressAllowList(deps.detailAllow);
  app.get(
    '/livez',
    { schema: { tags: ['health'], summary: 'Liveness: 200 {status: ok} while the process answers', response: { 200: Type.Object({ status: Type.String() }) } } },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['health'],
        summary:
          'Readiness: 200 {status: ok}, or 503 {status: unavailable, failing: [{check, problem, where}]} (database, migrations, dataDir, storage); problem and where in full to loopback and METRICS_ALLOW callers only, others hear {check, problem: unreachable | not applied | not writable | full}',
        response: {
          200: Type.Object({ status: Type.String() }),
          503: Type.Object({ status: Type.String(), failing: Type.Array(failingCheck) }),
        },
      },
    },
    async (request, reply) => {
      const failing = await failingChecks(deps);
      if (failing.length === 0) return reply.code(200).send({ status: 'ok' });
      // a probe every few seconds: the failures at debug level (a full storage is logged once where it happens)
      request.log.debug({ failing }, 'readiness check failed (503)');
      // through a public proxy anyone may ask: where the database is and who signs in to it is not theirs to know
      if (!toldWhere(request.ip)) return reply.code(503).send({ status: 'unavailable', failing: failing.map(({ check }) => ({ check, problem: briefProblem[check] })) });
      return reply.code(503).send({ status: 'unavailable', failing });
    },
  );

  app.get(
    apiPaths.health,
    {
      schema: {
        tags: ['health'],
        summary: 'Database and storage check: 200 {status: ok}; 503 {status: unavailable} when the database does not answer within 3 s, {status: storage full} when the storage is full',
        response: { 200: Type.Object({ status: Type.String() }), 503: Type.Object({ status: Type.String() }) },
      },
    },
    async (request, reply) => {
      // bounded: a database that does not answer is reported down, never waited for
      const up = await pingDatabase(deps.db.db, databaseTimeoutMs);
      if (!up) {
        request.log.error('health check: the database does not answer (503)');
        return reply.code(503).send({ status: 'unavailable' });
      }
      // agrees with /readyz: a full storage is not healthy
      if ((await deps.storage.status()).full !== null) return reply.code(503).send({ status: 'storage full' });
      return reply.code(200).send({ status: 'ok' });
    },
  );
}
