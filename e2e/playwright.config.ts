import { defineConfig } from '@playwright/test';
import { baseURL, e2eServerFor, e2eWorkers } from './support/env.ts';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: './tests',
  outputDir: '../.tmp/test-results',
  // Time limits catch a page that hangs; they measure nothing (speed is in `npm run bench`). CI shares its
  // machine: there the same tests have run four to six times slower than on a quiet one.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  // a spec's tests run in order in one worker; the specs are shared among e2eWorkers workers, each with its own
  // server (below) and its own ports for the servers a spec starts (support/env.ts portFor)
  fullyParallel: false,
  workers: e2eWorkers,
  retries: 0,
  forbidOnly: true,
  reporter: [['list'], ['json', { outputFile: '../.tmp/test-reports/playwright.json' }]],
  use: {
    baseURL,
    locale: 'en-US',
    // as users who ask their system for less motion: menus and dialogs open at once, so a click never lands
    // on a list still sliding open (the shell honours the setting, see apps/shell/src/lib/reduced-motion.ts)
    contextOptions: { reducedMotion: 'reduce' },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  // one server per worker slot, each on its own port and data folder
  webServer: Array.from({ length: e2eWorkers }, (_, slot) => e2eServerFor(slot)).map(({ port, dataDir }) => ({
    command: 'node e2e/support/start-server.mjs',
    cwd: '..',
    url: `http://127.0.0.1:${port}/healthz`,
    env: { PORT: String(port), E2E_DATA_DIR: dataDir },
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
  })),
});
