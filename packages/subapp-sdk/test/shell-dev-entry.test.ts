// @vitest-environment node
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer, type Plugin, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campusSubApp } from '../src/vite.ts';
import { inlineModuleScripts } from '../src/shell-dev-entry.ts';

const work = mkdtempSync(path.join(os.tmpdir(), 'sdk-shell-dev-entry-'));
let server: ViteDevServer;
let base: string;

/** What a framework plugin adds to a page under `vite` (as React's adds its hot-reload preamble). */
const preamblePlugin: Plugin = {
  name: 'test-preamble',
  transformIndexHtml: () => [{ tag: 'script', attrs: { type: 'module' }, children: 'window.__testPreamble = true;', injectTo: 'head' }],
};

beforeAll(async () => {
  mkdirSync(path.join(work, 'src'));
  writeFileSync(path.join(work, 'src/main.ts'), 'export const mount = async () => {};\n');
  server = await createServer({
    root: work,
    configFile: false,
    logLevel: 'silent',
    server: { port: 0, host: '127.0.0.1' },
    plugins: [preamblePlugin, campusSubApp({ name: 'partner-orders', version: '1.0.0', entry: 'src/main.ts', shellUrl: 'https://campus.example.com' })],
  });
  await server.listen();
  base = server.resolvedUrls!.local[0]!.replace(/\/$/, '');
});
afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('vite: the entry a developer names in the real shell', () => {
  it('is a page whose one classic script imports the dev server’s client, preamble and entry, and names the global', async () => {
    const reply = await fetch(`${base}/__campus-subapp/`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await reply.text();
    expect(page).toContain('<div data-subapp-root></div>');
    expect(page).not.toContain('id="partner-orders-root"');
    expect(page).toContain('<script entry>');
    expect(page).not.toMatch(/type="module"/);
    const origin = new URL(base).origin;
    expect(page).toContain(`var origin = "${origin}";`);
    for (const module of ['"/@vite/client"', '"/__campus-subapp/preamble.js"', '"/src/main.ts"']) expect(page).toContain(module);
    expect(page).toContain('window["campusPartnerOrders"] = {');
  });

  it('serves the page’s inline module scripts as the preamble module', async () => {
    const reply = await fetch(`${base}/__campus-subapp/preamble.js`);
    expect(reply.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await reply.text()).toContain('window.__testPreamble = true;');
  });

  it('answers CORS to loopback shells and to the shell it proxies to, not to another site', async () => {
    for (const path of ['/__campus-subapp/', '/src/main.ts']) {
      for (const origin of ['http://127.0.0.1:6300', 'http://localhost:8080', 'https://campus.example.com']) {
        const reply = await fetch(`${base}${path}`, { headers: { origin } });
        expect([path, origin, reply.headers.get('access-control-allow-origin')]).toEqual([path, origin, origin]);
      }
      const foreign = await fetch(`${base}${path}`, { headers: { origin: 'https://evil.example' } });
      expect([path, foreign.headers.get('access-control-allow-origin')]).toEqual([path, null]);
    }
  });

  it('finds only inline module scripts', () => {
    expect(inlineModuleScripts('<script type="module" src="/@vite/client"></script><script type="module">a()</script><script>b()</script>')).toEqual(['a()']);
  });
});
