import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { expect, test, type Page } from '@playwright/test';
import type { SubAppManifest } from '@campus/contracts';
import { baseURL, portFor } from '../support/env.ts';
import { run, serveFolder, starterArchive, subappCli } from '../support/team-sub-app.ts';
import { demo, moreEntries, signIn, switchLanguage } from '../support/sign-in.ts';

// Issue 28: a team at another company, with what the customer's server offers on /tools and the npm registry, makes
// a sub-app with the starter in a folder of its own (no workspace of this repository in reach), tests and builds it,
// serves it from its own server, and the operator registers it with `npm run subapp -- add`. Both variants.

const starter = starterArchive;

const variants = [
  { folder: 'partner-orders', appNo: 'porders', label: 'Partner Orders', labelZh: '合作伙伴订单', plain: false, global: 'campusPartnerOrders', devPort: portFor(6481) },
  { folder: 'plain-orders', appNo: 'plorders', label: 'Plain Orders', labelZh: '简单订单', plain: true, global: 'campusPlainOrders', devPort: portFor(6482) },
];

for (const variant of variants) {
  test.describe(`a sub-app made with the starter${variant.plain ? ' --plain' : ''}`, () => {
    test.describe.configure({ mode: 'serial' });
    let work: string;
    let app: string;
    let team: Awaited<ReturnType<typeof serveFolder>>;

    test.beforeAll(async () => {
      test.setTimeout(300_000);
      work = mkdtempSync(path.join(os.tmpdir(), 'starter-e2e-'));
      // from the customer's server, as the team gets it
      const download = await fetch(`${baseURL}/tools/${starter}`);
      expect(download.status, `GET /tools/${starter}`).toBe(200);
      writeFileSync(path.join(work, starter), Buffer.from(await download.arrayBuffer()));
      run('npx', ['--yes', `./${starter}`, variant.folder, ...(variant.plain ? ['--plain'] : [])], work);
      app = path.join(work, variant.folder);
      run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], app);
      run('npm', ['test'], app);
      run('npm', ['run', 'build'], app);
      team = await serveFolder(path.join(app, 'dist'));
      const manifest: SubAppManifest = {
        appNo: variant.appNo,
        label: { 'en-US': variant.label, 'zh-CN': variant.labelZh, 'zh-MO': variant.labelZh },
        basePath: variant.appNo,
        entry: `${team.origin}/`,
        scriptOrigins: [],
        pages: [
          { id: `${variant.appNo}-group`, path: '', name: 'group', title: { 'en-US': 'Orders', 'zh-CN': '订单', 'zh-MO': '訂單' } },
          { id: `${variant.appNo}-home`, parentId: `${variant.appNo}-group`, path: `/${variant.appNo}/home`, name: 'home', title: { 'en-US': 'Home', 'zh-CN': '首页', 'zh-MO': '首頁' } },
        ],
      };
      writeFileSync(path.join(work, 'manifest.json'), JSON.stringify(manifest));
      subappCli('add', path.join(work, 'manifest.json'));
    });
    test.afterAll(async () => {
      subappCli('remove', variant.appNo);
      await team?.close();
      rmSync(work, { recursive: true, force: true });
    });

    const view = (page: Page) => page.locator('#subapp-viewport section.starter-app');

    /** Opens the app from the header; a server node learns the new origin for its content policy within 30 s. */
    async function openFromHeader(page: Page) {
      await expect(async () => {
        await page.goto('/qy/homePage');
        await (await moreEntries(page)).filter({ hasText: variant.label }).click();
        await expect(page).toHaveURL(new RegExp(`/${variant.appNo}/home$`));
        await expect(view(page)).toBeVisible({ timeout: 5_000 });
      }).toPass({ timeout: 60_000, intervals: [2_000] });
    }

    test('opens from the header with the user’s name, relabels with the language, and leaves nothing behind', async ({ page }) => {
      await signIn(page, demo.sysadmin);
      await switchLanguage(page, 'en-US');
      await openFromHeader(page);
      await expect(view(page).getByRole('heading', { level: 2 })).toHaveText(`Hello, ${demo.sysadmin.name}`);
      await switchLanguage(page, 'zh-CN');
      await expect(view(page).getByRole('heading', { level: 2 })).toHaveText(`${demo.sysadmin.name}，您好`);

      // another system and back, twice: one view, one copy of its styles, its global kept off the shell's window
      for (let round = 0; round < 2; round++) {
        await page.goBack();
        await expect(page).toHaveURL(/\/qy\/homePage$/);
        await expect(view(page)).toHaveCount(0);
        await page.goForward();
        await expect(view(page)).toHaveCount(1);
      }
      const styles = await page.evaluate(() => Array.from(document.querySelectorAll('style')).filter((style) => style.textContent?.includes('.starter-app')).length);
      expect(styles).toBe(1);
      expect(await page.evaluate((name) => name in window, variant.global)).toBe(false);
    });

    test('npm run dev: the app on its own, with the session of the shell signed in to through the dev server', async ({ page }) => {
      const dev = spawn('npx', ['vite', '--host', '127.0.0.1', '--port', String(variant.devPort), '--strictPort'], { cwd: app, env: { ...process.env, CAMPUS_SHELL_URL: baseURL }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      let said = '';
      dev.stdout.on('data', (chunk) => (said += chunk));
      dev.stderr.on('data', (chunk) => (said += chunk));
      try {
        const devUrl = `http://127.0.0.1:${variant.devPort}`;
        await expect.poll(() => stripVTControlCharacters(said), { timeout: 30_000, message: 'the dev server starts' }).toContain(devUrl);
        // the shell's own sign-in, on the dev server's address
        await signIn(page, demo.sysadmin, `${devUrl}/login`);
        await page.goto(`${devUrl}/`);
        await page.evaluate(() => dispatchEvent(new CustomEvent('campus-subapp:language', { detail: { language: 'en-US' } })));
        // who is signed in, asked of the shell's server through the dev server
        await expect(page.locator('section.starter-app h2')).toHaveText(`Hello, ${demo.sysadmin.name}`);
        await page.evaluate(() => dispatchEvent(new CustomEvent('campus-subapp:language', { detail: { language: 'zh-MO' } })));
        await expect(page.locator('section.starter-app h2')).toHaveText(`${demo.sysadmin.name}，您好`);
      } finally {
        if (dev.pid) process.kill(-dev.pid, 'SIGTERM');
      }
    });

    test('a failure after mount shows the shell’s failed page, naming the app and its version; Retry brings it back', async ({ page }) => {
      // the team's change: a button that breaks the app (while rendering, for React)
      if (variant.plain) {
        const main = path.join(app, 'src/main.js');
        writeFileSync(main, readFileSync(main, 'utf8').replace("    context.root.append(page.element);\n", [
          '    context.root.append(page.element);',
          "    const breaker = document.createElement('button');",
          "    breaker.textContent = 'Break';",
          "    breaker.addEventListener('click', () => { page.element.remove(); breaker.remove(); context.fail(new Error('plain-orders broke after mount')); });",
          '    page.element.append(breaker);',
          '',
        ].join('\n')));
      } else {
        writeFileSync(path.join(app, 'src/app.tsx'), [
          "import { useState } from 'react';",
          "import type { SubAppContext } from '@campus/subapp-sdk';",
          'export function App({ context }: { context: SubAppContext }) {',
          '  const [broken, setBroken] = useState(false);',
          "  if (broken) throw new Error('partner-orders broke after mount');",
          '  return (<section className="starter-app"><h2>{context.props.userInfo.name}</h2><button type="button" onClick={() => setBroken(true)}>Break</button></section>);',
          '}',
          '',
        ].join('\n'));
      }
      run('npm', ['run', 'build'], app);
      await signIn(page, demo.sysadmin);
      await switchLanguage(page, 'en-US');
      await openFromHeader(page);
      await view(page).getByRole('button', { name: 'Break' }).click();
      await expect(page.getByRole('heading', { name: `${variant.label} stopped working` })).toBeVisible();
      await expect(page.getByText(`${variant.folder} 0.1.0 opened, then failed and has nothing to show.`)).toBeVisible();
      await expect(page.getByText(`${variant.folder} broke after mount`)).toBeVisible();
      await page.getByRole('button', { name: 'Retry' }).click();
      await expect(view(page).getByRole('button', { name: 'Break' })).toBeVisible();
    });
  });
}
