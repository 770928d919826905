import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { buildServeAndRegister, makeStarterApp, openStarterApp, starterView, type RegisteredStarterApp, type StarterApp } from '../support/team-sub-app.ts';
import { demo, signIn, switchLanguage } from '../support/sign-in.ts';

// Issue 48 item 17: a team whose app is on React 18. It makes the app with the starter from /tools, moves it to
// React 18 from the npm registry, builds it with its own React (shareReact: false) and the operator registers it.
// npm installs it without --legacy-peer-deps, the real shell mounts it, and a throw while rendering shows the shell's
// failed page (React 18 has no onUncaughtError: the SDK's error boundary catches it).

const folder = 'legacy-orders';
const appNo = 'legacyorders';
const label = 'Legacy Orders';

test.describe('a sub-app on React 18', () => {
  test.describe.configure({ mode: 'serial' });
  let starter: StarterApp | undefined;
  let app: string;
  let installOutput: string;
  let registered: RegisteredStarterApp | undefined;

  test.beforeAll(async () => {
    test.setTimeout(300_000);
    starter = await makeStarterApp('react18-sub-app', folder);
    app = starter.app;

    // the team's changes: React 18 and its types, its own React in the bundle, a page that shows which React runs
    // it and a button that breaks it while rendering
    const manifestFile = path.join(app, 'package.json');
    const pkg = JSON.parse(readFileSync(manifestFile, 'utf8'));
    Object.assign(pkg.dependencies, { react: '^18.3.1', 'react-dom': '^18.3.1' });
    Object.assign(pkg.devDependencies, { '@types/react': '^18.3.0', '@types/react-dom': '^18.3.0' });
    writeFileSync(manifestFile, `${JSON.stringify(pkg, null, 2)}\n`);
    const viteConfig = path.join(app, 'vite.config.ts');
    const config = readFileSync(viteConfig, 'utf8');
    expect(config).toContain('shellUrl: process.env.CAMPUS_SHELL_URL }');
    writeFileSync(viteConfig, config.replace('shellUrl: process.env.CAMPUS_SHELL_URL }', 'shellUrl: process.env.CAMPUS_SHELL_URL, shareReact: false }'));
    writeFileSync(path.join(app, 'src/broken-view.tsx'), [
      "import { useState, version } from 'react';",
      'export function BrokenView() {',
      '  const [broken, setBroken] = useState(false);',
      "  if (broken) throw new Error('legacy-orders broke while rendering');",
      '  return (<p className="legacy-react">React {version} <button type="button" onClick={() => setBroken(true)}>Break</button></p>);',
      '}',
      '',
    ].join('\n'));
    const appFile = path.join(app, 'src/app.tsx');
    const appSource = readFileSync(appFile, 'utf8');
    expect(appSource).toContain('</section>');
    writeFileSync(appFile, `import { BrokenView } from './broken-view.tsx';\n${appSource.replace('</section>', '<BrokenView /></section>')}`);

    // no --legacy-peer-deps: the SDK takes React 18 as its peer
    registered = await buildServeAndRegister(starter, { appNo, label });
    installOutput = registered.installOutput;
  });
  test.afterAll(async () => {
    await registered?.remove();
    starter?.discard();
  });

  const view = starterView;
  const openApp = (page: Page) => openStarterApp(page, appNo);

  test('installs from the registry without a peer conflict and builds with its own React 18', () => {
    expect(installOutput).not.toMatch(/ERESOLVE|peer dep/i);
    const installed = JSON.parse(readFileSync(path.join(app, 'node_modules/react/package.json'), 'utf8')) as { version: string };
    expect(installed.version).toMatch(/^18\./);
    // shareReact: false: the bundle carries React itself rather than the shell's
    expect(readFileSync(path.join(app, 'dist', `${folder}.umd.js`), 'utf8')).toContain(installed.version);
  });

  test('mounts in the shell on React 18, and a throw while rendering shows the shell’s failed page', async ({ page }) => {
    await signIn(page, demo.sysadmin);
    await switchLanguage(page, 'en-US');
    await openApp(page);
    await expect(view(page).getByRole('heading', { level: 2 })).toHaveText(`Hello, ${demo.sysadmin.name}`);
    await expect(view(page).locator('.legacy-react')).toContainText(/React 18\./);

    await view(page).getByRole('button', { name: 'Break' }).click();
    await expect(page.getByRole('heading', { name: `${label} stopped working` })).toBeVisible();
    await expect(page.getByText(`${folder} 0.1.0 opened, then failed and has nothing to show.`)).toBeVisible();
    await expect(page.getByText('legacy-orders broke while rendering')).toBeVisible();
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(view(page).locator('.legacy-react')).toContainText(/React 18\./);
  });
});
