import fs from 'node:fs';
import { afterAll, beforeAll, describe } from 'vitest';
import { it } from '@fast-check/vitest';
import { sm3Hex } from '@campus/card-crypto';
import { toLanguage } from '@campus/contracts';
import { repoRoot } from '../../src/config.ts';
import type { RegisteredRoute } from '../../src/http/types.ts';
import { databases, sha256, startServer } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';
import { gateEnv, install } from '../support/gate-helpers.ts';
import { requestsFor } from '../support/fuzz-requests.ts';
import type { FuzzRequest } from '../support/fuzz-requests.ts';
import { FuzzSession } from '../support/fuzz-session.ts';
import { readKnownValues } from '../support/known-values.ts';
import type { KnownValues } from '../support/known-values.ts';
import { problemsOf } from '../support/reply-checks.ts';
import type { ProblemKind } from '../support/reply-checks.ts';

/**
 * Fuzzing every route (issue 17, item 2): requests made from each route's own schemas (valid, boundary and
 * hostile values, support/schema-arbitraries.ts) go to every registered route, signed in as a system
 * administrator, not signed in and with a token that is no session; each reply must keep the rules of
 * support/reply-checks.ts (no 5xx, an envelope in the caller's language, its own schema, no leak).
 *
 * `npm test` runs a short, fixed-seed pass. `npm run bench` runs the long one through the same file:
 * FUZZ_RUNS (runs per route and caller), FUZZ_SEED (reported), FUZZ_REPORT (a JSON file for the figures).
 * Each property draws from its own seed, made from FUZZ_SEED and its name: the same FUZZ_SEED and FUZZ_RUNS with
 * `-t '<its name>'` replay a failure, whose counterexample and request are printed.
 */
const runs = Number(process.env.FUZZ_RUNS || 16);
const seed = Number(process.env.FUZZ_SEED || 1702);
const reportFile = process.env.FUZZ_REPORT || null;
const longRun = process.env.FUZZ_RUNS !== undefined && process.env.FUZZ_RUNS !== '';

/**
 * Who calls: a system administrator, nobody, a token that is no session; on a gate deployment also the holder
 * of a master-card token (the card set-up and card management routes take one).
 */
type Caller = 'administrator' | 'master card' | 'anonymous' | 'stranger';
const strangerToken = 'f'.repeat(43);

/** The demo installation, and a gate deployment set up through its cards (most card routes answer only there). */
const deployments = [
  { name: 'demo', env: {}, callers: ['administrator', 'anonymous', 'stranger'] as Caller[] },
  { name: 'gate', env: gateEnv, callers: ['administrator', 'master card', 'anonymous', 'stranger'] as Caller[] },
];

/** The routes as the server registers them, read from a server of their own before the tests are made. */
async function registeredRoutes(): Promise<RegisteredRoute[]> {
  const server = await startServer('sqlite');
  try {
    return [...server.app.routeList];
  } finally {
    await server.close();
  }
}

// Every route is fuzzed, the swagger-ui files of /docs and the sub-app folder route (`/subapps/*`) included.
const routes = await registeredRoutes();

const figures = {
  seed,
  runsPerRouteAndCaller: runs,
  routes: routes.length,
  databases: [...databases],
  deployments: deployments.map((d) => d.name),
  requests: 0,
  problems: { status5xx: 0, notEnvelope: 0, language: 0, schema: 0, leak: 0 } satisfies Record<ProblemKind, number>,
  failedRoutes: [] as string[],
  seconds: 0,
};
const started = Date.now();

/** Each property's own seed, made from the run's seed and its name: the same run replays, and no two properties draw alike. */
function seedOf(name: string): number {
  let hash = seed | 0;
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

const describeRequest = (request: FuzzRequest, token: string | undefined) =>
  JSON.stringify({ ...request, payload: typeof request.payload === 'string' ? request.payload.slice(0, 500) : request.payload ? `<${request.payload.length} bytes>` : undefined, token });

const cases = databases.flatMap((kind) => deployments.map((deployment) => ({ kind, deployment })));

describe.each(cases)('fuzzing every route ($kind, $deployment.name)', ({ kind, deployment }) => {
  let server: TestServer;
  let session: FuzzSession;
  let masterToken = '';
  let internalPaths: string[];
  // filled once the installation is set up; the requests made at collection read it as they are drawn
  const known: KnownValues = new Map();

  beforeAll(async () => {
    server = await startServer(kind, { env: deployment.env });
    if (deployment.name === 'gate') masterToken = (await install(server)).masterToken;
    session = new FuzzSession(server.app, server.handle, server.config.nationalCrypto ? sm3Hex : sha256);
    await session.signIn();
    internalPaths = [repoRoot, server.config.dataDir];
    await readKnownValues(server.handle, known);
  });
  afterAll(async () => {
    await server?.close();
  });

  const tokenOf = (caller: Caller): string | undefined =>
    caller === 'administrator' ? session.token : caller === 'master card' ? masterToken : caller === 'stranger' ? strangerToken : undefined;

  for (const route of routes) {
    for (const caller of deployment.callers) {
      const name = `${route.method} ${route.url} (${caller})`;
      it.prop([requestsFor(route, known)], { numRuns: runs, seed: seedOf(`${kind} ${deployment.name} ${name}`), endOnFailure: longRun })(name, async (request) => {
        const token = tokenOf(caller);
        const reply = await server.app.inject({
          method: request.method,
          url: request.url,
          headers: { ...request.headers, ...(token !== undefined ? { token } : {}) },
          payload: request.payload,
          remoteAddress: request.remoteAddress,
        });
        figures.requests += 1;
        const problems = problemsOf(
          { status: reply.statusCode, headers: reply.headers, rawPayload: reply.rawPayload },
          { route, method: request.method, language: toLanguage(request.headers.language), internalPaths },
        );
        if (caller === 'administrator' && (request.method === 'POST' || reply.statusCode === 401)) await session.keepAlive();
        if (problems.length === 0) return;
        for (const problem of problems) figures.problems[problem.kind] += 1;
        const failed = `${route.method} ${route.url}`;
        if (!figures.failedRoutes.includes(failed)) figures.failedRoutes.push(failed);
        throw new Error(`${problems.map((p) => `${p.kind}: ${p.detail}`).join('\n')}\nrequest: ${describeRequest(request, token)}`);
      });
    }
  }
});

afterAll(() => {
  figures.seconds = (Date.now() - started) / 1000;
  if (reportFile) fs.writeFileSync(reportFile, JSON.stringify(figures, null, 2));
});
