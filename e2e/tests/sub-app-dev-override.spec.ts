import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startSecondServer, type SecondServer } from '../support/second-server.ts';
import { asSetUp } from '../support/set-up-time.ts';
import { portFor } from '../support/env.ts';
import { repoRoot, serveFolder } from '../support/team-sub-app.ts';
import { demo, signIn, switchLanguage } from '../support/sign-in.ts';

// Issue 48 item 19: a developer points one sub-app at his own dev server, in his browser only, inside the real
// shell; the server decides whether that is allowed (SUBAPP_DEV_OVERRIDES). The suite's own server leaves it off;
// a second server turns it on.

const allowingPort = portFor(6571);
const vitePort = portFor(6573);
const overrideKey = 'campus.subAppDevOverride';
/** The sources a page's content policy lets scripts come from, without the shell's own inline script's hash. */
const scriptSources = (policy: string | null | undefined) =>
  (policy ?? '').split('; ').find((directive) => directive.startsWith('script-src '))?.split(' ').slice(1).filter((source) => !source.startsWith("'sha256-")) ?? [];
const viewport = (page: Page) => page.locator('#subapp-viewport');
const badge = (page: Page) => page.locator('.campus-dev-override');

/** A copy of the deployed enterprise-data build with two texts changed: what the developer's server serves. */
function changedCopy(): string {
  const folder = path.join(repoRoot, '.tmp', 'dev-override-copy');
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const dist = path.join(repoRoot, 'apps', 'subapp-qy', 'dist');
  for (const name of readdirSync(dist).filter((file) => !/\.(gz|br)$/.test(file))) cpSync(path.join(dist, name), path.join(folder, name));
  const bundle = path.join(folder, 'subapp-qy.umd.js');
  const code = readFileSync(bundle, 'utf8');
  expect(code).toContain('Here is how');
  expect(code).toContain('title:`Operation log`');
  writeFileSync(bundle, code.replaceAll('Here is how', 'DEV COPY: here is how').replaceAll('title:`Operation log`', 'title:`Operation log (dev copy)`'));
  return folder;
}

async function storeOverride(page: Page, entry: string) {
  await page.evaluate(([key, value]) => localStorage.setItem(key!, value!), [overrideKey, JSON.stringify({ app: 'qy', entry })]);
}

test.describe('a sub-app from a developer’s dev server inside the real shell', () => {
  test.describe.configure({ mode: 'serial' });
  let allowing: SecondServer;
  let copy: Awaited<ReturnType<typeof serveFolder>>;
  let copyFolder: string;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    allowing = await startSecondServer(allowingPort, { SUBAPP_DEV_OVERRIDES: 'on' });
    copyFolder = changedCopy();
    copy = await serveFolder(copyFolder);
  });
  test.afterAll(async () => {
    await allowing?.stop();
    await copy?.close();
    if (copyFolder) rmSync(copyFolder, { recursive: true, force: true });
  });

  test('allowed by the server: the changed copy runs with the Dev badge, survives a reload of a sub-page, and turns off', async ({ page }) => {
    await signIn(page, demo.sysadmin, `${allowing.baseURL}/login`);
    await switchLanguage(page, 'en-US');
    await expect(viewport(page).getByText(/^Here is how/)).toBeVisible();
    // allowing overrides widens no one's policy but a developer's browser
    const strict = (await fetch(`${allowing.baseURL}/qy/operate-log`)).headers.get('content-security-policy') ?? '';
    expect(scriptSources(strict)).toEqual(["'self'", "'unsafe-eval'"]);
    await storeOverride(page, `${copy.origin}/`);

    const firstView = await page.goto(`${allowing.baseURL}/qy/operate-log`);
    expect(scriptSources(firstView?.headers()['content-security-policy'])).toEqual(["'self'", "'unsafe-eval'"]);
    await expect(viewport(page).getByRole('heading', { name: 'Operation log (dev copy)' })).toBeVisible();
    await expect(badge(page)).toHaveText(`Dev: qy → ${copy.origin}`);
    // the shell asked for this browser's policy with the dev origins (a page load of its own)
    const widened = await page.request.get(`${allowing.baseURL}/qy/operate-log`);
    expect(scriptSources(widened.headers()['content-security-policy'])).toEqual(["'self'", "'unsafe-eval'", 'http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*']);
    await page.reload();
    await expect(viewport(page).getByRole('heading', { name: 'Operation log (dev copy)' })).toBeVisible();
    await expect(badge(page)).toBeVisible();
    await page.goto(`${allowing.baseURL}/qy/homePage`);
    await expect(viewport(page).getByText(/^DEV COPY: here is how/)).toBeVisible();

    await badge(page).getByRole('button', { name: 'Turn off the development code of qy' }).click();
    await expect(viewport(page).getByText(/^Here is how/)).toBeVisible();
    await expect(badge(page)).toHaveCount(0);
    expect(await page.evaluate((key) => localStorage.getItem(key), overrideKey)).toBeNull();
    expect(await page.evaluate(() => document.cookie)).not.toContain('campus-dev-override=1');
  });

  test('not allowed (the default): the stored override is ignored, removed with a message, and nothing is fetched from it', async ({ page }) => {
    const fromCopy: string[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(copy.origin)) fromCopy.push(request.url());
    });
    await signIn(page, demo.sysadmin);
    await switchLanguage(page, 'en-US');
    await storeOverride(page, `${copy.origin}/`);
    await page.goto('/qy/operate-log');
    await expect(page.getByText(`This server does not allow development code: the override of qy (${copy.origin}/) was removed from this browser and the installed version is loaded.`)).toBeVisible();
    await expect(viewport(page).getByRole('heading', { name: 'Operation log', exact: true })).toBeVisible();
    await expect(badge(page)).toHaveCount(0);
    expect(await page.evaluate((key) => localStorage.getItem(key), overrideKey)).toBeNull();
    expect(fromCopy).toEqual([]);
    // and the page's own policy refuses that origin, whatever a shell would try
    const csp = (await page.request.get('/')).headers()['content-security-policy'] ?? '';
    expect(csp).not.toContain('127.0.0.1:*');
  });

  test.describe('with the sub-app’s Vite dev server', () => {
    let work: string;
    let vite: ChildProcess | null = null;

    test.beforeAll(async () => {
      test.setTimeout(120_000);
      // a working copy of the enterprise-data app inside the repository (its packages resolve from there)
      work = path.join(repoRoot, '.tmp', 'dev-override-qy');
      rmSync(work, { recursive: true, force: true });
      const app = path.join(repoRoot, 'apps', 'subapp-qy');
      for (const name of ['src', 'index.html', 'package.json', 'vite.config.ts', 'tsconfig.json']) cpSync(path.join(app, name), path.join(work, name), { recursive: true });
      symlinkSync(path.join(app, 'node_modules'), path.join(work, 'node_modules'));
      vite = spawn(path.join(repoRoot, 'node_modules', '.bin', 'vite'), ['--configLoader', 'runner', '--port', String(vitePort), '--strictPort', '--host', '127.0.0.1'], { cwd: work, stdio: 'ignore' });
      await asSetUp(async () => {
        const deadline = Date.now() + 60_000;
        for (;;) {
          try {
            if ((await fetch(`http://127.0.0.1:${vitePort}/__campus-subapp/`)).ok) return;
          } catch {
            // not listening yet
          }
          if (Date.now() > deadline) throw new Error('the dev server did not answer within 60 s');
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      });
    });
    test.afterAll(() => {
      vite?.kill('SIGTERM');
      rmSync(work, { recursive: true, force: true });
    });

    test('its modules load from its origin, its hot-reload socket connects, and an edit shows without a reload', async ({ page }) => {
      const devOrigin = `http://127.0.0.1:${vitePort}`;
      const loaded: string[] = [];
      page.on('request', (request) => {
        if (request.url().startsWith(devOrigin)) loaded.push(new URL(request.url()).pathname);
      });
      const socket = page.waitForEvent('websocket', (ws) => ws.url().startsWith(`ws://127.0.0.1:${vitePort}`));
      await signIn(page, demo.sysadmin, `${allowing.baseURL}/login`);
      await switchLanguage(page, 'en-US');
      await storeOverride(page, `${devOrigin}/__campus-subapp/`);
      await page.goto(`${allowing.baseURL}/qy/homePage`);
      await expect(badge(page)).toHaveText(`Dev: qy → ${devOrigin}`);
      await expect(viewport(page).getByText(/^Here is how/)).toBeVisible();
      expect(loaded).toEqual(expect.arrayContaining(['/__campus-subapp/', '/@vite/client', '/__campus-subapp/preamble.js', '/src/main.ts', '/src/pages/home-page.tsx']));
      await socket;

      await page.evaluate(() => ((window as unknown as { sameView: boolean }).sameView = true));
      const homePage = path.join(work, 'src', 'pages', 'home-page.tsx');
      const source = readFileSync(homePage, 'utf8');
      expect(source).toContain("{t('home.intro', { tenant: tenantName })}");
      writeFileSync(homePage, source.replace("{t('home.intro', { tenant: tenantName })}", "{'Edited while the shell kept running'}"));
      await expect(viewport(page).getByText('Edited while the shell kept running')).toBeVisible();
      expect(await page.evaluate(() => (window as unknown as { sameView?: boolean }).sameView)).toBe(true);
      await expect(badge(page)).toBeVisible();
    });
  });
});
