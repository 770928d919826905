// @vitest-environment node
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { build } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { campusSubApp, entryPage, shellDevProxy, subAppBuildNames } from '../src/vite.ts';

const work = mkdtempSync(path.join(os.tmpdir(), 'sdk-vite-plugin-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Builds a one-file sub-app in a folder of its own with the plugin; returns what it wrote. */
async function buildApp(folder: string, main: string, files: Record<string, string> = {}, options: { shareReact?: boolean } = {}) {
  const root = path.join(work, folder);
  mkdirSync(path.join(root, 'src'), { recursive: true });
  writeFileSync(path.join(root, 'src/main.ts'), main);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(root, name), text);
  await build({ root, configFile: false, logLevel: 'silent', plugins: [campusSubApp({ name: 'partner-orders', version: '2.4.1+build.7', entry: 'src/main.ts', ...options })] });
  const dist = path.join(root, 'dist');
  return { files: readdirSync(dist).sort(), read: (name: string) => readFileSync(path.join(dist, name), 'utf8') };
}

describe('campusSubApp, the Vite plugin of a sub-app build', () => {
  it('writes the UMD entry with React from the shell, the entry page and the version file', async () => {
    const out = await buildApp('plain', "import { version } from 'react';\nexport const bootstrap = async () => {};\nexport const mount = async () => { console.log(version); };\nexport const unmount = async () => {};\n");
    expect(out.files).toEqual(['index.html', 'partner-orders.umd.js', 'report-version.json']);
    // no stylesheet: none linked (a link to a file the build did not write fails every mount)
    expect(out.read('index.html')).not.toContain('stylesheet');
    expect(out.read('index.html')).toContain('<div data-subapp-root id="partner-orders-root"></div>');
    // the shell reads the lifecycles from the global the entry script names (issue 48 item 16)
    expect(out.read('index.html')).toContain('<script src="./partner-orders.umd.js" entry data-lifecycles-global="campusPartnerOrders"></script>');
    expect(JSON.parse(out.read('report-version.json'))).toEqual({ serviceName: 'partner-orders', version: '2.4.1+build.7' });
    const bundle = out.read('partner-orders.umd.js');
    expect(bundle).toContain('campusPartnerOrders');
    expect(bundle).toContain('campusSharedLibraries.react');
    expect(bundle).not.toContain('react.production');
  });

  it('links the stylesheet when the app imports CSS', async () => {
    const out = await buildApp('styled', "import './app.css';\nexport const bootstrap = async () => {};\nexport const mount = async () => {};\nexport const unmount = async () => {};\n", { 'src/app.css': '.orders { color: #1f1f1f; }\n' });
    expect(out.files).toEqual(['index.html', 'partner-orders.css', 'partner-orders.umd.js', 'report-version.json']);
    expect(out.read('index.html')).toContain('<link rel="stylesheet" href="./partner-orders.css" />');
  });

  it('refuses a name or version the shell could not report, before anything is built', () => {
    expect(() => campusSubApp({ name: 'partner orders', version: '1.0.0' })).toThrow(/name "partner orders" must be/);
    expect(() => campusSubApp({ name: 'orders', version: '' })).toThrow(/version "" must be/);
  });

  it('names the files after the app, and the page escapes what it writes', () => {
    expect(subAppBuildNames({ name: 'partner-orders.v2' })).toEqual({ script: 'partner-orders.v2.umd.js', cssName: 'partner-orders.v2', globalName: 'campusPartnerOrdersV2' });
    expect(entryPage({ rootId: 'r', title: '<Orders & "Refunds">', script: 'a.js', stylesheets: [] })).toContain('<title>&lt;Orders &amp; &quot;Refunds&quot;&gt;</title>');
  });

  it('npm run dev: the shell’s pages, assets and API go to the shell; the dev page, Vite’s paths and the project’s files stay', () => {
    const proxy = shellDevProxy('http://127.0.0.1:6300/ignored/path', ['index.html', 'package.json', 'src', 'node_modules', 'vite.config.ts']);
    const [[pattern, target]] = Object.entries(proxy) as [[string, { target: string; changeOrigin: boolean }]];
    expect(target).toEqual({ target: 'http://127.0.0.1:6300', changeOrigin: true });
    const toShell = (url: string) => new RegExp(pattern).test(url);
    for (const url of ['/login', '/assets/index-abc.js', '/qy/api/User/GetDetailByToken', '/tools/tools.json', '/subapps/qy/', '/srcery', '/package.jsonx']) expect(toShell(url), url).toBe(true);
    for (const url of ['/', '/?lang=en', '/index.html', '/@vite/client', '/@react-refresh', '/src/main.tsx', '/package.json?import', '/node_modules/.vite/deps/react.js', '/__vite_ping']) expect(toShell(url), url).toBe(false);
    expect(() => shellDevProxy('ftp://shell.example', [])).toThrow(/must be an http\(s\) address/);
  });

  // Issue 48 item 16: Vue 3's runtime sets window globals of its own while the bundle runs, after the UMD wrapper
  // has made the bundle's global; the shell's loader took the last one as the lifecycles and refused the app.
  it('leaves the lifecycles the last global the bundle sets, whatever else the app sets while it runs', async () => {
    const main = [
      "const g = globalThis as Record<string, unknown>;",
      "g.__VUE_INSTANCE_SETTERS__ = [];",
      "g.__VUE_SSR_SETTERS__ = [];",
      'export const bootstrap = async () => {};',
      'export const mount = async () => {};',
      'export const unmount = async () => {};',
      '',
    ].join('\n');
    for (const shareReact of [true, false]) {
      const out = await buildApp(`framework-globals-${shareReact}`, main, {}, { shareReact });
      // what the loader does with an entry script: note the window's properties, run it, take the newest one
      const window = vm.createContext({ campusSharedLibraries: {} });
      const before = new Set(Object.keys(window));
      vm.runInContext(out.read('partner-orders.umd.js'), window);
      const added = Object.keys(window).filter((key) => !before.has(key));
      expect(added.at(-1), `shareReact: ${shareReact}`).toBe('campusPartnerOrders');
      expect(Object.keys(window.campusPartnerOrders as object).sort()).toEqual(['bootstrap', 'mount', 'unmount']);
    }
  });
});
