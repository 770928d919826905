import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subAppManifestRules } from '@campus/contracts';
import sdk from '../../subapp-sdk/package.json';

const root = path.resolve(import.meta.dirname, '../../..');
const starter = `create-campus-subapp-${sdk.version}.tgz`;

// The starter as a team outside this repository runs it: the packed tarball, with npx, in a folder of their own.
describe('create-campus-subapp', () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(path.join(os.tmpdir(), 'starter-test-'));
    execFileSync(process.execPath, [path.join(root, 'scripts/pack-subapp-sdk.mjs'), '--out', path.join(work, 'out')], { stdio: 'pipe' });
    copyFileSync(path.join(work, 'out', starter), path.join(work, starter));
  }, 60_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  const create = (...args: string[]) => spawnSync('npx', ['--yes', `./${starter}`, ...args], { cwd: work, encoding: 'utf8' });
  const json = (file: string) => JSON.parse(readFileSync(path.join(work, file), 'utf8'));

  it('makes a React and TypeScript app named after its folder, with the SDK inside it and the versions tried here', () => {
    const made = create('partner-orders');
    expect(made.status, made.stderr).toBe(0);
    expect(made.stdout).toContain('Made a React and TypeScript sub-app "partner-orders"');
    expect(made.stdout).toContain('npm run build');
    expect(readdirSync(path.join(work, 'partner-orders')).sort()).toEqual(['.gitignore', 'index.html', 'package.json', 'src', 'subapp-manifest.json', 'tsconfig.json', 'vendor', 'vite.config.ts']);
    const pkg = json('partner-orders/package.json');
    expect(pkg.name).toBe('partner-orders');
    expect(pkg.dependencies['@campus/subapp-sdk']).toBe(`file:vendor/campus-subapp-sdk-${sdk.version}.tgz`);
    expect(existsSync(path.join(work, 'partner-orders/vendor', `campus-subapp-sdk-${sdk.version}.tgz`))).toBe(true);
    expect(pkg.dependencies.react).toMatch(/^\^19\./);
    expect(pkg.devDependencies.vite).toMatch(/^~\d+\.\d+\.\d+$/);
    expect(pkg.scripts).toEqual({ dev: 'vite', build: 'tsc && vite build', test: 'vitest run' });
    expect(readFileSync(path.join(work, 'partner-orders/index.html'), 'utf8')).toContain('<div data-subapp-root id="partner-orders-root"></div>');
  }, 60_000);

  it('writes the manifest the operator registers, with a system code the server takes (issue 48 item 18)', () => {
    const manifest = json('partner-orders/subapp-manifest.json');
    expect(manifest).toEqual({
      appNo: 'partnerorders',
      label: { 'en-US': 'Partner Orders', 'zh-CN': 'Partner Orders', 'zh-MO': 'Partner Orders' },
      basePath: 'partnerorders',
      pages: [
        { id: 'partnerorders-group', path: '', name: 'group', title: { 'en-US': 'Partner Orders', 'zh-CN': 'Partner Orders', 'zh-MO': 'Partner Orders' } },
        { id: 'partnerorders-home', parentId: 'partnerorders-group', path: '/partnerorders/home', name: 'home', title: { 'en-US': 'Home', 'zh-CN': '首页', 'zh-MO': '首頁' } },
      ],
    });
    expect(manifest.appNo).toMatch(new RegExp(subAppManifestRules.appNoPattern));

    const given = create('orders-2026', '--code', 'porders');
    expect(given.status, given.stderr).toBe(0);
    expect(given.stdout).toContain('(system code porders)');
    expect(json('orders-2026/subapp-manifest.json')).toMatchObject({ appNo: 'porders', basePath: 'porders', pages: [{ id: 'porders-group' }, { path: '/porders/home' }] });
    expect(json('orders-2026/package.json').name).toBe('orders-2026');
  }, 60_000);

  it('refuses a system code that is not one, saying what a code is, and writes nothing', () => {
    const badCode = create('orders-3', '--code=Partner-Orders');
    expect([badCode.status, badCode.stderr]).toEqual([2, expect.stringContaining('"Partner-Orders" cannot be a system code: a code is 2 to 16 lowercase letters and digits, starting with a letter')]);
    const noCode = create('2026');
    expect([noCode.status, noCode.stderr]).toEqual([2, expect.stringContaining('"2026" gives no system code ("2026"): a code is 2 to 16 lowercase letters and digits, starting with a letter; name one with --code')]);
    expect(existsSync(path.join(work, 'orders-3'))).toBe(false);
    expect(existsSync(path.join(work, '2026'))).toBe(false);
  }, 60_000);

  it('--plain makes a JavaScript app without React', () => {
    const made = create('plain-orders', '--plain');
    expect(made.status, made.stderr).toBe(0);
    const pkg = json('plain-orders/package.json');
    expect(Object.keys(pkg.dependencies)).toEqual(['@campus/subapp-sdk']);
    expect(readdirSync(path.join(work, 'plain-orders/src')).sort()).toEqual(['main.js', 'page.css', 'page.js', 'page.test.js']);
    const page = readFileSync(path.join(work, 'plain-orders/index.html'), 'utf8');
    expect(page).toContain('<div data-subapp-root id="plain-orders-root"></div>');
    expect(page).toContain('<script type="module" src="/src/main.js"></script>');
  }, 60_000);

  // Issue 48 item 16: many vendors in this field write Vue.
  it('--vue makes a Vue 3 and TypeScript app with its test, on the Vue lines tried in the shell', () => {
    const made = create('vue-orders', '--vue');
    expect(made.status, made.stderr).toBe(0);
    expect(made.stdout).toContain('Made a Vue and TypeScript sub-app "vue-orders" (system code vueorders)');
    expect(readdirSync(path.join(work, 'vue-orders')).sort()).toEqual(['.gitignore', 'index.html', 'package.json', 'src', 'subapp-manifest.json', 'tsconfig.json', 'vendor', 'vite.config.ts']);
    expect(readdirSync(path.join(work, 'vue-orders/src')).sort()).toEqual(['App.vue', 'app.test.ts', 'main.ts']);
    const pkg = json('vue-orders/package.json');
    expect(Object.keys(pkg.dependencies)).toEqual(['@campus/subapp-sdk', 'vue']);
    expect(pkg.dependencies.vue).toMatch(/^\^3\.5\./);
    expect(pkg.devDependencies['@vitejs/plugin-vue']).toMatch(/^~\d+\.\d+\.\d+$/);
    expect(pkg.devDependencies).not.toHaveProperty('@vitejs/plugin-react');
    expect(pkg.scripts).toEqual({ dev: 'vite', build: 'vue-tsc && vite build', test: 'vitest run' });
    const page = readFileSync(path.join(work, 'vue-orders/index.html'), 'utf8');
    expect(page).toContain('<div data-subapp-root id="vue-orders-root"></div>');
    expect(page).toContain('<script type="module" src="/src/main.ts"></script>');
    expect(json('vue-orders/subapp-manifest.json')).toMatchObject({ appNo: 'vueorders', basePath: 'vueorders' });

    const both = create('mixed-orders', '--vue', '--plain');
    expect([both.status, both.stderr]).toEqual([2, expect.stringContaining('--plain and --vue are two kinds of app: pick one')]);
    expect(existsSync(path.join(work, 'mixed-orders'))).toBe(false);
  }, 60_000);

  it('refuses a name that cannot be an app name, a folder in use and an unknown option, writing nothing', () => {
    const badName = create('Partner Orders');
    expect([badName.status, badName.stderr]).toEqual([2, expect.stringContaining('"Partner Orders" cannot be an app\'s name')]);
    expect(existsSync(path.join(work, 'Partner Orders'))).toBe(false);

    mkdirSync(path.join(work, 'in-use'));
    writeFileSync(path.join(work, 'in-use/notes.txt'), 'ours');
    const inUse = create('in-use');
    expect([inUse.status, inUse.stderr]).toEqual([2, expect.stringContaining('is not empty: name a new folder')]);
    expect(readdirSync(path.join(work, 'in-use'))).toEqual(['notes.txt']);
    writeFileSync(path.join(work, 'a-file'), 'ours');
    const file = create('a-file');
    expect([file.status, file.stderr]).toEqual([2, expect.stringContaining('is not empty: name a new folder')]);
    expect(readFileSync(path.join(work, 'a-file'), 'utf8')).toBe('ours');

    const option = create('orders', '--svelte');
    expect([option.status, option.stderr]).toEqual([2, expect.stringContaining('unknown option --svelte')]);
    expect(create().stderr).toContain('name one folder');
    expect(create('--help').stdout).toContain('Usage: create-campus-subapp <folder> [--plain | --vue]');
  }, 60_000);
});
