import { test } from '@playwright/test';

/**
 * Runs set-up that is not what the test checks (a server start, a vendor CLI) and adds the time it took to the
 * running test's (or hook's) time limit. The limit is there to catch a page that hangs; on a shared, busy
 * machine a server start alone can take a third of it, and that must not fail a test whose pages are fine.
 */
export async function asSetUp<T>(work: () => Promise<T> | T): Promise<T> {
  const started = Date.now();
  try {
    return await work();
  } finally {
    const info = test.info();
    info.setTimeout(info.timeout + (Date.now() - started));
  }
}
