import { test } from '@playwright/test';

/** Longest set-up step the suite waits for (a second server gives up after 60 s on its own). */
const setUpLimitMs = 120_000;

/**
 * Runs set-up that is not what the test checks (a server start, a vendor CLI) outside the running test's (or
 * hook's) time limit: the limit is there to catch a page that hangs, and on a shared, busy machine a server
 * start alone can take a third of it, which must not fail a test whose pages are fine. While the set-up runs
 * the limit has room for it; afterwards it is the test's own limit plus the time the set-up took.
 */
export async function asSetUp<T>(work: () => Promise<T> | T): Promise<T> {
  // outside a Playwright test (the upgrade check, e2e/upgrade) there is no time limit to widen
  let info: ReturnType<typeof test.info>;
  try {
    info = test.info();
  } catch {
    return work();
  }
  const limit = info.timeout;
  const started = Date.now();
  info.setTimeout(limit + setUpLimitMs);
  try {
    return await work();
  } finally {
    info.setTimeout(limit + (Date.now() - started));
  }
}
