import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SubAppEntry } from '@campus/contracts';
import { apiPaths, codes, reportVersionFileName, signedInPreloadScript } from '@campus/contracts';

/** The shell's one inline script, as a browser hashes it: the CSP must allow exactly that text, and no other inline script. */
const inlineScriptSource = `'sha256-${createHash('sha256').update(signedInPreloadScript).digest('base64')}'`;
import { ConfigError, loadConfig } from '../../src/config.ts';
import { call, databases, signIn, startServer, tempDir } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';

interface RawReply {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
}

/** A raw request that keeps the path exactly as written (fetch would normalise `..` and `%2e`). */
function raw(url: string, rawPath: string, method = 'GET', headers: Record<string, string> = {}): Promise<RawReply> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, path: rawPath, method, headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

const entries = 'mj=https://mj.example.com:8443/apps/mj/, kq=/custom/kq/ ,monitor/mj=http://10.0.0.7/mk/';

/** Every system of the catalogue with its folder, in catalogue order. */
const catalogue: [string, string, string][] = [
  ['qy', 'qy', 'qy'],
  ['xt', 'qy', 'qy'],
  ['mj', 'mj', 'mj'],
  ['tk', 'mj', 'mj'],
  ['mk', 'monitor/mj', 'monitor/mj'],
  ['fk', 'fk', 'fk'],
  ['kq', 'kq', 'kq'],
  ['xf', 'xf', 'xf'],
  ['lk', 'lk', 'lk'],
  ['hy', 'hy', 'hy'],
  ['fb', 'fb', 'fb'],
  ['ss', 'ss', 'ss'],
  ['xg', 'xg', 'xg'],
  ['tc', '', 'tc'],
];

describe.each(databases)('sub-app files and registry (%s)', (kind) => {
  let server: TestServer;
  let base: string;
  let subAppsDir: string;
  let bundledQy: string;
  let token: string;

  beforeAll(async () => {
    base = tempDir('campus-subapps-');
    // base/package.json and base/data/secret.txt lie outside both sub-app roots
    write(path.join(base, 'package.json'), '{"name":"secret-package"}');
    write(path.join(base, 'data', 'secret.txt'), 'top secret');
    subAppsDir = path.join(base, 'data', 'subapps');
    write(path.join(subAppsDir, 'monitor', 'mj', 'index.html'), '<!doctype html><title>deployed monitor</title>');
    write(path.join(subAppsDir, 'monitor', 'mj', 'assets', 'monitor.js'), 'console.log("monitor")');
    write(path.join(subAppsDir, 'qy', 'stray.txt'), 'a file of a folder without index.html');
    write(path.join(subAppsDir, 'qy', '.env'), 'SECRET=1');
    bundledQy = path.join(base, 'bundled', 'subapp-qy', 'dist');
    write(path.join(bundledQy, 'index.html'), '<!doctype html><title>bundled qy</title><script src="./subapp-qy.umd.js"></script>');
    write(path.join(bundledQy, 'subapp-qy.umd.js'), '(function(){window.bundledQy=1})()');
    write(path.join(bundledQy, 'subapp-qy.css'), '.qy{color:red}');
    write(path.join(bundledQy, reportVersionFileName), '{"serviceName":"subapp-qy","version":"1.0.0"}');
    write(path.join(base, 'bundled', 'secret.txt'), 'bundled secret');
    const shellDist = path.join(base, 'shell');
    write(path.join(shellDist, 'index.html'), '<!doctype html><title>shell</title><div id="root"></div>');
    server = await startServer(kind, { env: { SUBAPPS_DIR: subAppsDir, SHELL_DIST: shellDist, SUBAPP_ENTRIES: entries }, config: { bundledSubApps: { qy: bundledQy } } });
    token = await signIn(server, 'staff', 'Staff#2026');
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(base, { recursive: true, force: true });
  });

  it("the folder URL answers its index.html (what qiankun fetches), not cached without a check", async () => {
    for (const p of ['/subapps/qy/', '/subapps/qy/index.html']) {
      const res = await fetch(`${server.url}${p}`);
      expect([p, res.status]).toEqual([p, 200]);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toContain('<title>bundled qy</title>');
    }
  });

  it('the other files of the bundled build: their types, a short cache that is not immutable', async () => {
    const js = await fetch(`${server.url}/subapps/qy/subapp-qy.umd.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=60');
    expect(await js.text()).toContain('bundledQy');
    const css = await fetch(`${server.url}/subapps/qy/subapp-qy.css`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(css.headers.get('cache-control')).not.toContain('immutable');
    const version = await fetch(`${server.url}/subapps/qy/${reportVersionFileName}`);
    expect(version.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(version.headers.get('cache-control')).toBe('no-cache');
    expect(await version.json()).toEqual({ serviceName: 'subapp-qy', version: '1.0.0' });
  });

  it('HEAD answers the headers without the body; an unchanged file revalidates with 304', async () => {
    const head = await raw(server.url, '/subapps/qy/subapp-qy.umd.js', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(fs.statSync(path.join(bundledQy, 'subapp-qy.umd.js')).size));
    expect(head.body).toBe('');
    const first = await fetch(`${server.url}/subapps/qy/`);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).not.toBe('');
    const again = await raw(server.url, '/subapps/qy/', 'GET', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
  });

  it('a folder asked for without its slash is sent to the folder URL', async () => {
    const res = await raw(server.url, '/subapps/qy');
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe('/subapps/qy/');
    expect((await raw(server.url, '/subapps/monitor/mj')).headers.location).toBe('/subapps/monitor/mj/');
  });

  it('folders with a slash (monitor/mj) are served from SUBAPPS_DIR', async () => {
    const index = await fetch(`${server.url}/subapps/monitor/mj/`);
    expect(index.status).toBe(200);
    expect(await index.text()).toContain('deployed monitor');
    const js = await fetch(`${server.url}/subapps/monitor/mj/assets/monitor.js`);
    expect(await js.text()).toContain('monitor');
  });

  it("a deployment's own qy build (SUBAPPS_DIR/qy/index.html) wins over the bundled one, as a whole, at once", async () => {
    // without its index.html, SUBAPPS_DIR/qy is not a build: the bundled one answers
    expect((await fetch(`${server.url}/subapps/qy/stray.txt`)).status).toBe(404);
    write(path.join(subAppsDir, 'qy', 'index.html'), '<!doctype html><title>deployed qy</title>');
    try {
      const index = await fetch(`${server.url}/subapps/qy/`);
      expect(await index.text()).toContain('deployed qy');
      expect((await fetch(`${server.url}/subapps/qy/stray.txt`)).status).toBe(200);
      // never a mix of the deployment's index.html and the bundled scripts
      expect((await fetch(`${server.url}/subapps/qy/subapp-qy.umd.js`)).status).toBe(404);
      expect((await fetch(`${server.url}/subapps/qy/${reportVersionFileName}`)).status).toBe(404);
    } finally {
      fs.rmSync(path.join(subAppsDir, 'qy', 'index.html'));
    }
    expect(await (await fetch(`${server.url}/subapps/qy/`)).text()).toContain('bundled qy');
  });

  it('anything missing is a 404 envelope, never the shell, even for a browser asking for HTML', async () => {
    for (const p of ['/subapps/kq/', '/subapps/kq/index.html', '/subapps/qy/missing.js', '/subapps/', '/subapps', '/subapps/qy/index.html/', '/subapps/index.html', '/subapps/monitor/']) {
      const res = await raw(server.url, p, 'GET', { accept: 'text/html,application/xhtml+xml' });
      expect([p, res.status]).toEqual([p, 404]);
      expect(res.headers['content-type']).toContain('application/json');
      expect(JSON.parse(res.body)).toEqual({ code: codes.notFound, msg: expect.any(String), data: null });
      expect(res.body).not.toContain('<div id="root">');
    }
    // the shell's fallback still works for its own routes
    expect((await raw(server.url, '/qy/homePage', 'GET', { accept: 'text/html' })).body).toContain('<div id="root">');
  });

  it('paths that would leave the sub-app folders are refused, and nothing outside is served', async () => {
    for (const p of [
      '/subapps/..%2f..%2fpackage.json',
      '/subapps/..%2F..%2Fpackage.json',
      '/subapps/../../package.json',
      '/subapps/qy/../../secret.txt',
      '/subapps/qy/..%2f..%2fsecret.txt',
      '/subapps/qy/..%2fsecret.txt',
      '/subapps/%2e%2e/secret.txt',
      '/subapps/qy/%2e%2e%2f%2e%2e%2f%2e%2e%2fpackage.json',
      '/subapps/qy/..%5c..%5csecret.txt',
      '/subapps/qy/..\\..\\secret.txt',
      '/subapps/qy//etc/passwd',
      '/subapps/%2fetc%2fpasswd',
      '/subapps/qy/.env',
      '/subapps/qy/%2eenv',
      '/subapps/qy/index.html%00.js',
      '/subapps/qy/%zz',
      '/subapps/qy/./index.html',
    ]) {
      const res = await raw(server.url, p, 'GET', { accept: 'text/html' });
      expect([p, [400, 404].includes(res.status)]).toEqual([p, true]);
      expect(res.headers['content-type']).toContain('application/json');
      expect([p, (JSON.parse(res.body) as { code: number }).code]).toEqual([p, res.status === 400 ? codes.badRequest : codes.notFound]);
      for (const leak of ['secret', 'SECRET', 'root:', '<div id="root">', 'bundled qy']) expect([p, res.body.includes(leak)]).toEqual([p, false]);
    }
  });

  it('the registry: one entry per system of the catalogue, SUBAPP_ENTRIES replacing the folder URL; which are installed', async () => {
    const reply = await call<SubAppEntry[]>(server, 'GET', apiPaths.subAppRegistry, undefined, { token });
    expect(reply.status).toBe(200);
    expect(reply.body.code).toBe(codes.ok);
    const overrides: Record<string, string> = { mj: 'https://mj.example.com:8443/apps/mj/', kq: '/custom/kq/', 'monitor/mj': 'http://10.0.0.7/mk/' };
    // installed: qy (its bundled build) and every entry this server does not serve from /subapps/ (only loading it can tell)
    expect(reply.body.data).toEqual(
      catalogue.map(([appNo, frontRoutingAddr, folder]) => ({
        appNo,
        frontRoutingAddr,
        folder,
        entry: overrides[folder] ?? `/subapps/${folder}/`,
        installed: folder === 'qy' || folder in overrides,
      })),
    );
  });

  it('the registry needs a session', async () => {
    const none = await call(server, 'GET', apiPaths.subAppRegistry);
    expect(none.status).toBe(401);
    expect(none.body.code).toBe(codes.tokenInvalid);
  });

  it("the CSP lets qiankun's sandbox eval sub-app scripts and lets the other servers' entries load", async () => {
    for (const p of ['/', '/subapps/qy/', apiPaths.languages]) {
      const csp = (await fetch(`${server.url}${p}`)).headers.get('content-security-policy') ?? '';
      const directives = new Map(csp.split('; ').map((d) => [d.split(' ')[0] ?? '', d.split(' ').slice(1)]));
      expect(directives.get('script-src')).toEqual(["'self'", "'unsafe-eval'", inlineScriptSource]);
      for (const name of ['connect-src', 'img-src', 'font-src', 'style-src']) {
        expect([name, directives.get(name)]).toEqual([name, expect.arrayContaining(["'self'", 'https://mj.example.com:8443', 'http://10.0.0.7'])]);
      }
      expect(directives.get('connect-src')).toContain('http://127.0.0.1:18085');
      expect(directives.get('default-src')).toEqual(["'self'"]);
      expect(csp).not.toContain('/custom/kq/');
    }
  });

  it('the oss route keeps its own stricter CSP', async () => {
    const settings = await call<{ headerLogo: string }>(server, 'GET', apiPaths.tenantSettings);
    const logo = await fetch(`${server.url}${settings.body.data.headerLogo}`);
    expect(logo.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
  });
});

describe('sub-apps with the default settings', () => {
  it('SUBAPPS_DIR is DATA_DIR/subapps, the registry points at /subapps/<folder>/, the CSP names no other server', async () => {
    const bundled = tempDir('campus-bundled-');
    const server = await startServer('sqlite', { config: { bundledSubApps: { qy: bundled } } });
    try {
      expect(server.config.subAppsDir).toBe(path.join(server.config.dataDir, 'subapps'));
      write(path.join(server.config.subAppsDir, 'kq', 'index.html'), '<title>kq</title>');
      expect(await (await fetch(`${server.url}/subapps/kq/`)).text()).toContain('<title>kq</title>');
      // the bundled folder without a build: a 404, not an error
      expect((await fetch(`${server.url}/subapps/qy/`)).status).toBe(404);
      const token = await signIn(server, 'sysadmin', 'Sysadmin#2026');
      const reply = await call<SubAppEntry[]>(server, 'GET', apiPaths.subAppRegistry, undefined, { token });
      expect(reply.body.data.map((e) => e.entry)).toEqual(catalogue.map(([, , folder]) => `/subapps/${folder}/`));
      // only kq has a build here (the bundled qy folder is empty)
      expect(reply.body.data.filter((e) => e.installed).map((e) => e.folder)).toEqual(['kq']);
      const csp = (await fetch(`${server.url}/`)).headers.get('content-security-policy') ?? '';
      expect(csp).toContain(`script-src 'self' 'unsafe-eval' ${inlineScriptSource};`);
      expect(csp).toContain("connect-src 'self' http://127.0.0.1:18085 http://localhost:18085;");
      expect(csp).toContain("img-src 'self' data: blob:;");
    } finally {
      await server.close();
      fs.rmSync(bundled, { recursive: true, force: true });
    }
  });
});

describe('configuration of sub-apps', () => {
  it('SUBAPPS_DIR defaults to DATA_DIR/subapps and resolves against the working directory; qy is bundled from apps/subapp-qy/dist', () => {
    const defaults = loadConfig({}, '/srv/campus');
    expect(defaults.subAppsDir).toBe('/srv/campus/data/subapps');
    expect(loadConfig({ DATA_DIR: '/var/lib/campus' }, '/srv/campus').subAppsDir).toBe('/var/lib/campus/subapps');
    expect(loadConfig({ SUBAPPS_DIR: 'builds' }, '/srv/campus').subAppsDir).toBe('/srv/campus/builds');
    expect(loadConfig({ SUBAPPS_DIR: '/opt/subapps' }, '/srv/campus').subAppsDir).toBe('/opt/subapps');
    expect(defaults.bundledSubApps.qy?.endsWith(path.join('apps', 'subapp-qy', 'dist'))).toBe(true);
    expect(defaults.subAppEntries).toEqual({});
  });

  it('SUBAPP_ENTRIES: folder=url items, paths on this server or absolute http(s) URLs', () => {
    expect(loadConfig({ SUBAPP_ENTRIES: '  ' }).subAppEntries).toEqual({});
    expect(loadConfig({ SUBAPP_ENTRIES: entries }).subAppEntries).toEqual({
      mj: 'https://mj.example.com:8443/apps/mj/',
      kq: '/custom/kq/',
      'monitor/mj': 'http://10.0.0.7/mk/',
    });
    expect(loadConfig({ SUBAPP_ENTRIES: 'tc=https://parking.example.com/' }).subAppEntries).toEqual({ tc: 'https://parking.example.com/' });
  });

  it.each([
    ['no "="', 'mj', 'mj'],
    ['an empty item', 'mj=/m/,', ''],
    ['an upper-case folder', 'MJ=/m/', 'MJ=/m/'],
    ['a folder with a trailing slash', 'mj/=/m/', 'mj/=/m/'],
    ['a folder with ".."', '../mj=/m/', '../mj=/m/'],
    ['an empty folder', '=/m/', '=/m/'],
    ['a folder named twice', 'mj=/a/,mj=/b/', 'mj=/b/'],
    ['a url without its trailing slash', 'kq=/k/,mj=https://mj.example.com/mj', 'mj=https://mj.example.com/mj'],
    ['a path without its trailing slash', 'mj=/mj', 'mj=/mj'],
    ['a relative url', 'mj=mj/', 'mj=mj/'],
    ['a protocol-relative url', 'mj=//evil.example.com/', 'mj=//evil.example.com/'],
    ['a backslash path', 'mj=/\\evil.example.com/', 'mj=/\\evil.example.com/'],
    ['an ftp url', 'mj=ftp://mj.example.com/', 'mj=ftp://mj.example.com/'],
    ['a javascript url', 'mj=javascript:alert(1)/', 'mj=javascript:alert(1)/'],
    ['a url with a query', 'mj=https://mj.example.com/?x=/', 'mj=https://mj.example.com/?x=/'],
    ['a url with a fragment', 'mj=https://mj.example.com/#/', 'mj=https://mj.example.com/#/'],
    ['a path with a space', 'mj=/m j/', 'mj=/m j/'],
    ['an empty url', 'mj=', 'mj='],
  ])('%s: refused at start, naming the variable and the item', (_name, value, item) => {
    const attempt = () => loadConfig({ SUBAPP_ENTRIES: value });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/^Invalid configuration: SUBAPP_ENTRIES /);
    expect(attempt).toThrow(`item "${item}"`);
  });

  it('a url with a user name or password is refused without repeating it', () => {
    const attempt = () => loadConfig({ SUBAPP_ENTRIES: 'mj=https://ops:hunter2@mj.example.com/' });
    expect(attempt).toThrow(/SUBAPP_ENTRIES item "mj=…" has a url that must not contain a user name or password/);
    expect(attempt).not.toThrow(/hunter2/);
  });
});
