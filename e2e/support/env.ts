import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The browser suite runs in `e2eWorkers` Playwright workers, each with a server of its own (playwright.config.ts).
// Playwright loads this file again in every worker after setting TEST_PARALLEL_INDEX (0, 1, …): what a worker
// derives here (its ports, its data folder) is its own, so two specs running side by side never meet.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** How many workers (and servers) the suite runs: E2E_WORKERS, 2 by default (one per core). */
export const e2eWorkers = Math.max(1, Number(process.env.E2E_WORKERS ?? 2) || 1);
/** This worker's slot: 0 in the runner and the first worker, 1 in the second, …. */
export const workerSlot = Number(process.env.TEST_PARALLEL_INDEX ?? 0);

/**
 * The port a spec names, moved to the worker's own range (slot × 1000 above it). Every port a spec or a support
 * module listens on goes through here: `startSecondServer(portFor(6386), …)`; docs/development.md "Ports in tests" lists the
 * numbers taken.
 */
export function portFor(port: number, slot = workerSlot): number {
  return port + 1000 * slot;
}

/** A folder of the repository's .tmp for this worker (slot 0 keeps the plain name). */
export function tmpFolderFor(name: string, slot = workerSlot): string {
  return path.join(repoRoot, '.tmp', slot === 0 ? name : `${name}-${slot}`);
}

/** The server of a worker slot (playwright.config.ts starts one per slot): E2E_PORT moved as every port is. */
export function e2eServerFor(slot: number): { port: number; dataDir: string } {
  return { port: portFor(Number(process.env.E2E_PORT ?? 6391), slot), dataDir: tmpFolderFor('e2e-data', slot) };
}

/** This worker's server, and the data folder it runs on. */
export const { port: e2ePort, dataDir: e2eDataDir } = e2eServerFor(workerSlot);
export const baseURL = `http://127.0.0.1:${e2ePort}`;
/** The image code the test server draws (NODE_ENV=test only). */
export const captchaText = process.env.TEST_CAPTCHA_TEXT ?? 'K7PX';
