import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Writable } from 'node:stream';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, codes } from '@campus/contracts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { safeLoggerOptions } from '../../src/app.ts';
import { call, databases, sha256, signIn, startServer, tempDir, webLoginBody } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';

/** A raw GET that keeps the path exactly as written (fetch would normalise `..`). */
function rawGet(url: string, rawPath: string): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, path: rawPath, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe.each(databases)('platform: health, docs, shell, files (%s)', (kind) => {
  let server: TestServer;
  let shellDir: string;
  beforeAll(async () => {
    shellDir = tempDir('campus-shell-');
    fs.writeFileSync(path.join(shellDir, 'index.html'), '<!doctype html><title>shell</title><div id="root"></div>');
    fs.mkdirSync(path.join(shellDir, 'assets'));
    fs.writeFileSync(path.join(shellDir, 'assets', 'app-1234.js'), 'console.log(1)');
    fs.writeFileSync(path.join(shellDir, 'assets', 'logo-1234.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    server = await startServer(kind, { env: { SHELL_DIST: shellDir } });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(shellDir, { recursive: true, force: true });
  });

  it('/healthz answers ok', async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('/livez and /readyz answer for probes; unknown paths under them and the API are 404, never the shell', async () => {
    expect(await (await fetch(`${server.url}/livez`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok' });
    for (const unknown of ['/readyz/x', '/livez/', '/metrics', '/metrics/x', '/qy/api/Nothing/Here', '/healthz/more']) {
      const res = await fetch(`${server.url}${unknown}`, { headers: { accept: 'text/html' } });
      expect(res.status, unknown).toBe(404);
      expect(((await res.json()) as { code: number }).code, unknown).toBe(codes.notFound);
    }
  });

  it('/docs serves the OpenAPI description with the sign-in path, and the UI page under the CSP', async () => {
    const json = (await (await fetch(`${server.url}/docs/json`)).json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(json.openapi).toMatch(/^3\./);
    expect(json.paths[apiPaths.webLogin]?.post).toBeDefined();
    expect(json.paths[apiPaths.captchaImage]?.get).toBeDefined();
    expect(Object.keys(json.paths).length).toBeGreaterThanOrEqual(25);
    const page = await fetch(`${server.url}/docs/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('swagger-ui');
    expect(html).not.toMatch(/<script>(?!\s*<\/script>)/); // no inline script the CSP would block
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('the shell is served at / with the CSP, and non-API HTML requests fall back to index.html', async () => {
    const root = await fetch(`${server.url}/`);
    expect(root.status).toBe(200);
    expect(await root.text()).toContain('<div id="root">');
    const csp = root.headers.get('content-security-policy') ?? '';
    for (const part of ["default-src 'self'", "img-src 'self' data: blob:", "style-src 'self' 'unsafe-inline'", "script-src 'self'", 'connect-src', 'http://127.0.0.1:18085', "media-src 'self' data:", "frame-ancestors 'self'", "object-src 'none'"]) {
      expect(csp).toContain(part);
    }
    for (const p of ['/qy/homePage', '/home', '/login', '/tools', '/mj/mj-action-event?x=1']) {
      const res = await fetch(`${server.url}${p}`, { headers: { accept: 'text/html,application/xhtml+xml' } });
      expect([p, res.status]).toEqual([p, 200]);
      expect(await res.text()).toContain('<div id="root">');
    }
    const asset = await fetch(`${server.url}/assets/app-1234.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    // a script is never a document: it keeps what a script uses and goes without the page-only headers
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
    expect(asset.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(asset.headers.get('referrer-policy')).toBe('no-referrer');
    for (const documentOnly of ['content-security-policy', 'cross-origin-opener-policy', 'x-frame-options', 'x-xss-protection']) {
      expect([documentOnly, asset.headers.get(documentOnly)]).toEqual([documentOnly, null]);
      expect([documentOnly, root.headers.get(documentOnly)]).not.toEqual([documentOnly, null]);
    }
    // an SVG opens as a page when followed: it keeps the whole set
    const svg = await fetch(`${server.url}/assets/logo-1234.svg`);
    expect(svg.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(svg.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });

  it('unknown API paths answer a 404 envelope, even for HTML requests', async () => {
    const res = await call(server, 'GET', '/system/api/System/NoSuchCall', undefined, { language: 'en-US', headers: { accept: 'text/html' } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: codes.notFound, msg: 'Not found', data: null });
    expect((await call(server, 'POST', '/qy/api/Nothing', {})).status).toBe(404);
    expect((await call(server, 'GET', '/assets/missing.js')).body.code).toBe(codes.notFound);
  });

  it('oss objects come with their type, a sandboxing CSP and nosniff; bad ids are refused', async () => {
    const settings = await call<{ loginBg: string; headerLogo: string }>(server, 'GET', apiPaths.tenantSettings);
    const bg = await fetch(`${server.url}${settings.body.data.loginBg}`);
    expect(bg.status).toBe(200);
    expect(bg.headers.get('content-type')).toBe('image/png');
    expect(bg.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect(bg.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await bg.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG');
    const logo = await fetch(`${server.url}${settings.body.data.headerLogo}`);
    expect(logo.headers.get('content-type')).toBe('image/svg+xml');
    expect(await logo.text()).toContain('<svg');
    expect((await call(server, 'GET', '/oss/file/getObject/no-such-object')).status).toBe(404);
    expect((await rawGet(server.url, '/oss/file/getObject/bad%20id')).status).toBe(400);
    expect((await rawGet(server.url, '/oss/file/getObject/..%2F..%2Fcampus.db')).status).toBe(400);
  });

  it('a PNG or JPEG picture goes as AVIF or WebP to a browser that takes them, the original to others; a new one replaces every encoding', async () => {
    const settings = await call<{ loginBg: string }>(server, 'GET', apiPaths.tenantSettings);
    const get = async (accept: string, url = settings.body.data.loginBg) => {
      const res = await fetch(`${server.url}${url}`, { headers: { accept } });
      return { type: res.headers.get('content-type'), vary: res.headers.get('vary'), bytes: Buffer.from(await res.arrayBuffer()) };
    };
    // what Chromium asks for a CSS background; Firefox; an old browser
    const chromium = await get('image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8');
    const webpOnly = await get('image/webp,*/*');
    const old = await get('image/png,image/*;q=0.8,*/*;q=0.5');
    expect([chromium.type, webpOnly.type, old.type]).toEqual(['image/avif', 'image/webp', 'image/png']);
    expect(chromium.vary).toBe('Accept');
    expect(chromium.bytes.subarray(4, 12).toString('latin1')).toBe('ftypavif');
    expect(webpOnly.bytes.subarray(8, 12).toString('latin1')).toBe('WEBP');
    // the demo's 1600 × 900 background: a tenth of the PNG or less
    expect(chromium.bytes.length * 10).toBeLessThan(old.bytes.length);
    expect(webpOnly.bytes.length * 10).toBeLessThan(old.bytes.length);
    // a browser that refuses AVIF (q=0) gets WebP
    expect((await get('image/avif;q=0,image/webp')).type).toBe('image/webp');

    // a picture replaced by one that cannot be made smaller (an SVG): its old encodings go with it
    const { OssService } = await import('../../src/modules/oss/oss-service.ts');
    const { OssRepository } = await import('../../src/modules/oss/oss-repository.ts');
    const oss = new OssService({ repo: new OssRepository(server.handle.db), now: Date.now });
    await oss.put('test-picture', 'image/png', old.bytes);
    expect((await get('image/avif,image/webp', '/oss/file/getObject/test-picture')).type).toBe('image/avif');
    await oss.put('test-picture', 'image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'));
    const replaced = await get('image/avif,image/webp,*/*', '/oss/file/getObject/test-picture');
    expect(replaced.type).toBe('image/svg+xml');
    // the encodings are not objects of their own: a dot is no part of an id
    expect((await rawGet(server.url, '/oss/file/getObject/login-bg.avif')).status).toBe(400);
  });

  it('tools: the list, a download as an attachment, and no way out of the tools folder', async () => {
    const list = (await (await fetch(`${server.url}/tools/tools.json`)).json()) as { showName: string; use: string; fileName: string }[];
    expect(list.map((t) => t.fileName)).toEqual(['card-reader-setup.txt', 'card-issuer-guide.txt', 'employee-import-template.csv']);
    expect(list[0]).toMatchObject({ showName: expect.any(String), use: expect.any(String), fileName: 'card-reader-setup.txt' });
    const file = await fetch(`${server.url}/tools/card-reader-setup.txt`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="card-reader-setup.txt"/);
    expect(await file.text()).toContain('Card reader');
    fs.writeFileSync(path.join(server.config.dataDir, 'secret.txt'), 'secret');
    for (const p of [
      '/tools/../secret.txt',
      '/tools/..%2Fsecret.txt',
      '/tools/..%2fsecret.txt',
      '/tools/%2e%2e%2fsecret.txt',
      '/tools/%2e%2e/secret.txt',
      '/tools/..%5Csecret.txt',
      '/tools/%2Fetc%2Fpasswd',
      '/tools//etc/passwd',
      '/tools/..',
      '/tools/.hidden',
      '/tools/no-such-tool.exe',
    ]) {
      const res = await rawGet(server.url, p);
      expect([p, [400, 404].includes(res.status)]).toEqual([p, true]);
      expect(res.body).not.toContain('secret');
      expect(res.body).not.toContain('root:');
    }
  });

  it('rejects non-JSON content types with an envelope, not a stack trace', async () => {
    const res = await fetch(`${server.url}${apiPaths.webLogin}`, { method: 'POST', headers: { 'content-type': 'application/xml' }, body: '<user/>' });
    expect(res.status).toBe(415);
    const body = (await res.json()) as { code: number };
    expect(body.code).toBe(codes.badRequest);
  });
});

describe('the shell not built', () => {
  it('GET / says so and tells how to build it', async () => {
    const server = await startServer('sqlite');
    try {
      const res = await fetch(`${server.url}/`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('npm run build');
      const deep = await fetch(`${server.url}/qy/homePage`, { headers: { accept: 'text/html' } });
      expect(deep.status).toBe(404);
    } finally {
      await server.close();
    }
  });
});

describe('health when the database is gone', () => {
  it('answers 503', async () => {
    const server = await startServer('sqlite');
    await server.handle.close();
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'unavailable' });
    await server.app.close();
  });
});

describe('rate limits', () => {
  it('sign-in, captcha and tenant search answer 429 with code tooManyRequests over the limit', async () => {
    const server = await startServer('sqlite', { env: { RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      for (let i = 0; i < 3; i += 1) expect((await call(server, 'GET', `${apiPaths.tenantSearch}?account=staff`)).status).toBe(200);
      const limited = await call(server, 'GET', `${apiPaths.tenantSearch}?account=staff`, undefined, { language: 'en-US' });
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({ code: codes.tooManyRequests, msg: 'Too many requests, please try again later', data: null });
      for (let i = 0; i < 3; i += 1) await call(server, 'GET', `${apiPaths.captchaImage}?verifyKey=abcdefgh${i}`);
      expect((await call(server, 'GET', `${apiPaths.captchaImage}?verifyKey=abcdefgh9`)).status).toBe(429);
      for (let i = 0; i < 3; i += 1) await call(server, 'POST', apiPaths.webLogin, webLoginBody('staff', 'Staff#2026'));
      expect((await call(server, 'POST', apiPaths.webLogin, webLoginBody('staff', 'Staff#2026'))).body.code).toBe(codes.tooManyRequests);
    } finally {
      await server.close();
    }
  });
});

describe('request logs hold no secrets', () => {
  it('neither the token header nor the password digest reaches the log', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const server = await startServer('sqlite', { logger: { ...safeLoggerOptions, stream } });
    try {
      const token = await signIn(server, 'staff', 'Staff#2026');
      await call(server, 'GET', apiPaths.userDetail, undefined, { token });
      await call(server, 'GET', `${apiPaths.tenantSearch}?account=staff`);
      const log = lines.join('');
      expect(log).toContain(apiPaths.userDetail);
      expect(log).not.toContain(token);
      expect(log).not.toContain(sha256('Staff#2026'));
      expect(log).not.toContain('account=staff');
    } finally {
      await server.close();
    }
  });
});

describe('configuration', () => {
  it('TEST_CAPTCHA_TEXT is honoured only when NODE_ENV=test', async () => {
    expect(loadConfig({ NODE_ENV: 'test', TEST_CAPTCHA_TEXT: 'AB23' }).testCaptchaText).toBe('AB23');
    for (const mode of ['development', 'production', undefined]) {
      expect(() => loadConfig({ NODE_ENV: mode, TEST_CAPTCHA_TEXT: 'AB23' })).toThrow(ConfigError);
      expect(() => loadConfig({ NODE_ENV: mode, TEST_CAPTCHA_TEXT: 'AB23' })).toThrow(/TEST_CAPTCHA_TEXT/);
    }
  });

  it('TEST_CLOCK_OFFSET_MS moves the clock only when NODE_ENV=test', async () => {
    const config = loadConfig({ NODE_ENV: 'test', TEST_CLOCK_OFFSET_MS: '-86400000' });
    expect(config.testClockOffsetMs).toBe(-86_400_000);
    expect(loadConfig({ NODE_ENV: 'test' }).testClockOffsetMs).toBe(0);
    for (const mode of ['development', 'production', undefined]) {
      expect(() => loadConfig({ NODE_ENV: mode, TEST_CLOCK_OFFSET_MS: '1000' })).toThrow(/TEST_CLOCK_OFFSET_MS/);
    }
    expect(() => loadConfig({ NODE_ENV: 'test', TEST_CLOCK_OFFSET_MS: '1 year' })).toThrow(/TEST_CLOCK_OFFSET_MS/);
  });

  it('invalid values fail with a message naming the variable', () => {
    const bad: [Record<string, string>, RegExp][] = [
      [{ PORT: 'abc' }, /PORT/],
      [{ PORT: '70000' }, /PORT/],
      [{ MJ_SYSTEM: 'x' }, /MJ_SYSTEM/],
      [{ IMAGE_CODE: 'maybe' }, /IMAGE_CODE/],
      [{ PRIVATE_DEPLOYMENT: 'sometimes' }, /PRIVATE_DEPLOYMENT/],
      [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
      [{ LDAP_URL: 'http://x' }, /LDAP_URL/],
      [{ LDAP_URL: 'ldap://127.0.0.1' }, /LDAP_BASE_DN/],
      [{ LDAP_URL: 'ldap://127.0.0.1', LDAP_BASE_DN: 'dc=x', LDAP_USER_FILTER: '(uid=*)' }, /LDAP_USER_FILTER/],
      [{ SESSION_IDLE_MINUTES: '0' }, /SESSION_IDLE_MINUTES/],
      [{ SESSION_MAX_HOURS: '-1' }, /SESSION_MAX_HOURS/],
      [{ TRUST_PROXY: 'all' }, /TRUST_PROXY/],
      [{ TRUST_PROXY: '11' }, /TRUST_PROXY/],
      [{ TRUST_PROXY: '10.0.0.5,proxy.example.com' }, /TRUST_PROXY.*proxy\.example\.com/],
      [{ TRUST_PROXY: '10.0.0.0/33' }, /TRUST_PROXY/],
      // a hop count on a server others can reach believes anyone's X-Forwarded-For (issue 46 item 9)
      [{ TRUST_PROXY: '1' }, /TRUST_PROXY is a number of proxy hops \(1\) while HOST 0\.0\.0\.0 takes connections from other machines.*Set HOST=127\.0\.0\.1.*or TRUST_PROXY to the proxies' addresses/],
      [{ TRUST_PROXY: 'on', HOST: '192.0.2.10' }, /TRUST_PROXY is a number of proxy hops \(1\) while HOST 192\.0\.2\.10/],
      [{ TRUST_PROXY: '2', HOST: '::' }, /TRUST_PROXY is a number of proxy hops \(2\) while HOST ::/],
    ];
    for (const [env, name] of bad) expect(() => loadConfig(env)).toThrow(name);
    const defaults = loadConfig({}, '/srv/campus');
    expect(defaults).toMatchObject({ port: 6300, host: '0.0.0.0', dataDir: '/srv/campus/data', mjSystem: 1, nationalCrypto: false, imageCode: true, privateDeployment: false, ldap: null, sessionIdleMinutes: 120, sessionMaxHours: 12 });
    expect(defaults.shellDist.endsWith(path.join('apps', 'shell', 'dist'))).toBe(true);
    expect(loadConfig({ MJ_SYSTEM: '21' }).nationalCrypto).toBe(true);
    // TRUST_PROXY: never "every hop" (that would believe the client's own first X-Forwarded-For entry)
    expect(defaults.trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'on', HOST: '127.0.0.1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2', HOST: '::1' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '1', HOST: 'localhost' }).trustProxy).toBe(1);
    // the proxies named: any HOST
    expect(loadConfig({ TRUST_PROXY: '10.0.0.5' }).trustProxy).toBe('10.0.0.5');
    expect(loadConfig({ TRUST_PROXY: 'off' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.5 , 10.0.0.0/24,::1 ' }).trustProxy).toBe('10.0.0.5,10.0.0.0/24,::1');
  });
});

const mainTs = path.resolve(import.meta.dirname, '..', '..', 'src', 'main.ts');
const tsxBin = path.resolve(import.meta.dirname, '..', '..', '..', '..', 'node_modules', '.bin', 'tsx');

function runMain(env: Record<string, string>, untilText: string | null, timeoutMs = 40_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(tsxBin, [mainTs], { env: { ...process.env, DATABASE_URL: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`main.ts did not finish: ${stdout}\n${stderr}`));
    }, timeoutMs);
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (untilText && `${stdout}${stderr}`.includes(untilText)) child.kill('SIGTERM');
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
      if (untilText && `${stdout}${stderr}`.includes(untilText)) child.kill('SIGTERM');
    });
    // 'close': both pipes read to their end (the log lines written before the exit included)
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('main.ts', () => {
  it('refuses to start with TEST_CAPTCHA_TEXT outside NODE_ENV=test', async () => {
    const dir = tempDir();
    const result = await runMain({ NODE_ENV: 'development', TEST_CAPTCHA_TEXT: 'AB23', DATA_DIR: dir, PORT: '0' }, null);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/TEST_CAPTCHA_TEXT is only allowed when NODE_ENV=test/);
    expect(fs.existsSync(path.join(dir, 'campus.db'))).toBe(false);
  });

  it('refuses to start with a TRUST_PROXY hop count on every address, and says at start whose X-Forwarded-For it believes', async () => {
    const refused = await runMain({ NODE_ENV: 'production', TRUST_PROXY: '1', DATA_DIR: tempDir(), PORT: '0' }, null);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('TRUST_PROXY is a number of proxy hops (1) while HOST 0.0.0.0 takes connections from other machines');
    const dir = tempDir();
    const started = await runMain({ NODE_ENV: 'production', TRUST_PROXY: '1', HOST: '127.0.0.1', DATA_DIR: dir, PORT: '0' }, 'server listening');
    expect(started.stdout).toContain('"msg":"Proxies: X-Forwarded-For believed 1 hop(s) back, from any caller (HOST 127.0.0.1 takes connections from this machine only)"');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('names a data folder it cannot write in one line and exits 2, without a stack trace', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'not-a-folder');
    fs.writeFileSync(file, '');
    // a path below a file: refused even to root (chmod is not)
    const dataDir = path.join(file, 'data');
    const result = await runMain({ NODE_ENV: 'production', DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' }, null);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^DATA_DIR ${dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not writable by user \\S+: ENOTDIR`, 'm'));
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout).toBe('');
  });

  it('a production start seeds no demo accounts and leaves the one-time password in a private file, never in its output', async () => {
    const dir2 = tempDir();
    const run = await runMain({ NODE_ENV: 'production', DATA_DIR: dir2, PORT: '0', HOST: '127.0.0.1' }, 'server listening');
    // its output goes to the journal (no terminal): JSON lines only, the start-up lines too (issue 48 item 6), on stdout
    expect(run.stderr).toBe('');
    const lines = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as { level: number; msg: string; migration?: string; url?: string; passwordFile?: string; startup?: boolean });
    expect(lines.filter((line) => line.msg === 'database migration applied').map((line) => line.migration)).toContain('0001_initial');
    expect(lines.find((line) => line.msg === 'server listening')?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const startup = lines.filter((line) => line.startup === true);
    expect(startup.map((line) => line.level)).toEqual(startup.map(() => 30));
    expect(startup[0]?.msg).toMatch(/^Campus shell server: http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(startup[1]?.msg).toBe(`Database: SQLite ${path.join(dir2, 'campus.db')}`);
    expect(startup[2]?.msg).toMatch(/^Proxies: /);
    const passwordFile = path.join(dir2, 'initial-admin-password');
    expect(lines.find((line) => line.msg === 'first start: system administrator created')?.passwordFile).toBe(passwordFile);
    expect(startup[3]?.msg).toContain(`its one-time password is in ${passwordFile}`);
    expect(fs.statSync(passwordFile).mode & 0o777).toBe(0o600);
    const match = /^password (\S+)$/m.exec(fs.readFileSync(passwordFile, 'utf8'));
    expect(match).not.toBeNull();
    const password = match?.[1] ?? '';
    expect(password).toMatch(/^.{16}$/);
    expect(run.stdout).not.toContain(password);
    expect(run.stderr).not.toContain(password);
    expect(run.stdout + run.stderr).not.toContain('Sysadmin#2026');

    // The same data folder, started through the test harness: admin signs in, no demo account exists.
    const { openDatabase } = await import('../../src/db/database.ts');
    const handle = openDatabase({ databaseUrl: null, sqliteFile: path.join(dir2, 'campus.db') });
    const users = await handle.db.selectFrom('users').select(['account', 'pwd_edit_reason', 'is_system_admin']).execute();
    const licences = await handle.db.selectFrom('licences').selectAll().execute();
    await handle.close();
    expect(users).toEqual([{ account: 'admin', pwd_edit_reason: 0, is_system_admin: 1 }]);
    expect(licences).toEqual([]);
    expect(fs.existsSync(path.join(dir2, 'tools', 'tools.json'))).toBe(false);
    fs.rmSync(dir2, { recursive: true, force: true });
  });
});

describe('main.ts on a SQLite file another process is writing to', () => {
  it('waits past busy_timeout for the write to end, then starts', async () => {
    const dir = tempDir();
    // another process (a backup writing its row, a second node) holds the write lock for 12 s: longer than the
    // start's way to its first write (2-4 s) and the 5 s of busy_timeout together
    const holder = spawn('sqlite3', [path.join(dir, 'campus.db')], { stdio: ['pipe', 'ignore', 'inherit'] });
    holder.stdin.write('PRAGMA journal_mode=WAL; CREATE TABLE held (x); BEGIN EXCLUSIVE; INSERT INTO held VALUES (1);\n');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const release = setTimeout(() => holder.stdin.end('COMMIT;\n'), 12_000);
    try {
      const run = await runMain({ NODE_ENV: 'production', DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1' }, 'server listening', 60_000);
      expect(run.stderr).not.toMatch(/Start-up failed/);
      expect(run.stdout).toContain('server listening');
    } finally {
      clearTimeout(release);
      holder.stdin.end();
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('main.ts when the one-time password cannot be written', () => {
  it('keeps serving and says, once, how to give the administrator a new one', async () => {
    const dir = tempDir();
    // the password file's name is taken by a folder: the write fails, as on a full disk
    fs.mkdirSync(path.join(dir, 'initial-admin-password', 'in-the-way'), { recursive: true });
    const run = await runMain({ NODE_ENV: 'production', DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1' }, 'server listening');
    const lines = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as { level: number; msg: string });
    const said = lines.filter((line) => line.msg.startsWith('first start: the one-time password could not be written'));
    expect(said).toHaveLength(1);
    expect(said[0]?.level).toBe(50);
    expect(said[0]?.msg).toMatch(/\(EISDIR\); once that is fixed, give the administrator a new one: campus admin reset-password --tenant \S+ --account admin$/);
    expect(lines.some((line) => line.msg === 'server listening')).toBe(true);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe.each(databases)('production seed through the API (%s)', (kind) => {
  it('admin signs in with the one-time password and must change it; demo accounts do not exist', async () => {
    const server = await startServer(kind, { env: { NODE_ENV: 'production' } });
    try {
      expect(server.seed.mode).toBe('production');
      if (server.seed.mode !== 'production') return;
      const token = await signIn(server, 'admin', server.seed.admin.password, server.seed.admin.tenantCode);
      const user = await call<{ oprtPwdEditReason: number; isSystemAdmin: boolean; isFirstLogin: boolean }>(server, 'GET', apiPaths.userDetail, undefined, { token });
      expect(user.body.data).toMatchObject({ oprtPwdEditReason: 0, isSystemAdmin: true, isFirstLogin: true });
      expect((await call(server, 'POST', apiPaths.webLogin, webLoginBody('sysadmin', 'Sysadmin#2026'))).body.code).toBe(codes.accountOrPasswordWrong);
      const licence = await call<{ isNormal: boolean; licenseType: number }>(server, 'GET', apiPaths.licencePermission, undefined, { token });
      expect(licence.body.data).toMatchObject({ isNormal: false, licenseType: 4 });
    } finally {
      await server.close();
    }
  });
});
