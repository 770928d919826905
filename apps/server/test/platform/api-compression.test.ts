import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@campus/contracts';
// @ts-expect-error: a plain build script without type declarations
import { compressFolder } from '../../../../scripts/compress-assets.mjs';
import { registerJsonCompression } from '../../src/http/json-compression.ts';
import { databases, signIn, startServer, tempDir } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';

interface RawReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A GET that keeps the bytes as they travel (fetch would decompress them). */
function rawGet(url: string, urlPath: string, headers: Record<string, string> = {}): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    http
      .get(`${url}${urlPath}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

function decoded(reply: RawReply): Buffer {
  if (reply.headers['content-encoding'] === 'br') return brotliDecompressSync(reply.body);
  if (reply.headers['content-encoding'] === 'gzip') return gunzipSync(reply.body);
  return reply.body;
}

const script = `/* app */\n${'export const greeting = "Hello from the campus shell";\n'.repeat(200)}`;
const html = `<!doctype html><html><head><title>Campus</title></head><body>${'<div id="root"></div>'.repeat(100)}</body></html>`;

describe('scripts/compress-assets.mjs', () => {
  it('writes .br and .gz beside compressible files of 1 KiB and more, and nothing else', () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'assets', 'big.js'), script);
    fs.writeFileSync(path.join(dir, 'small.css'), 'a{color:red}');
    fs.writeFileSync(path.join(dir, 'logo.png'), Buffer.alloc(4096, 7));
    const totals = compressFolder(dir) as { files: number; bytes: number; brotliBytes: number };
    expect(totals.files).toBe(1);
    expect(totals.brotliBytes).toBeLessThan(totals.bytes / 5);
    expect(brotliDecompressSync(fs.readFileSync(path.join(dir, 'assets', 'big.js.br'))).toString()).toBe(script);
    expect(gunzipSync(fs.readFileSync(path.join(dir, 'assets', 'big.js.gz'))).toString()).toBe(script);
    for (const absent of ['small.css.br', 'small.css.gz', 'logo.png.br']) expect(fs.existsSync(path.join(dir, absent)), absent).toBe(false);
  });
});

describe.each(databases)('compressed transfer (%s)', (kind) => {
  let server: TestServer;

  beforeAll(async () => {
    const shell = tempDir('campus-shell-dist-');
    fs.mkdirSync(path.join(shell, 'assets'));
    fs.writeFileSync(path.join(shell, 'index.html'), html);
    fs.writeFileSync(path.join(shell, 'assets', 'index-3f9a2c1b.js'), script);
    compressFolder(shell);
    server = await startServer(kind, { env: { SHELL_DIST: shell } });
    const kq = path.join(server.config.subAppsDir, 'kq');
    fs.mkdirSync(kq, { recursive: true });
    fs.writeFileSync(path.join(kq, 'index.html'), html);
    fs.writeFileSync(path.join(kq, 'kq.umd.js'), script);
    compressFolder(kq);
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each([
    ['br', 'br'],
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['identity', undefined],
  ])('a hashed shell asset, Accept-Encoding %s: %s, the same bytes, cached a year', async (accept, encoding) => {
    const reply = await rawGet(server.url, '/assets/index-3f9a2c1b.js', { 'accept-encoding': accept });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-encoding']).toBe(encoding);
    expect(reply.headers.vary).toMatch(/accept-encoding/i);
    expect(reply.headers['content-type']).toMatch(/javascript/);
    expect(reply.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(decoded(reply).toString()).toBe(script);
    if (encoding) expect(reply.body.length).toBeLessThan(script.length / 5);
  });

  it('the shell page (also as the fallback of a route) is compressed and never cached without asking', async () => {
    for (const urlPath of ['/', '/login', '/qy/homePage']) {
      const reply = await rawGet(server.url, urlPath, { accept: 'text/html', 'accept-encoding': 'gzip, br' });
      expect(reply.status, urlPath).toBe(200);
      expect(reply.headers['content-encoding'], urlPath).toBe('br');
      expect(reply.headers['content-type'], urlPath).toMatch(/text\/html/);
      expect(reply.headers['cache-control'], urlPath).toBe('no-cache');
      expect(decoded(reply).toString()).toBe(html);
    }
  });

  it('sub-app files are sent compressed too, with Vary, and a repeat with the ETag is 304', async () => {
    const reply = await rawGet(server.url, '/subapps/kq/kq.umd.js', { 'accept-encoding': 'br' });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-encoding']).toBe('br');
    expect(reply.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(reply.headers['content-length'])).toBe(reply.body.length);
    expect(decoded(reply).toString()).toBe(script);
    const plain = await rawGet(server.url, '/subapps/kq/kq.umd.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body.toString()).toBe(script);
    const again = await rawGet(server.url, '/subapps/kq/kq.umd.js', { 'accept-encoding': 'br', 'if-none-match': String(reply.headers.etag) });
    expect(again.status).toBe(304);
  });

  it('JSON replies of 1 KiB and more are compressed by Accept-Encoding; small ones are not', async () => {
    const token = await signIn(server, 'sysadmin', 'Sysadmin#2026');
    const menus = await rawGet(server.url, apiPaths.menus, { token, 'accept-encoding': 'gzip, br' });
    expect(menus.headers['content-encoding']).toBe('br');
    expect(menus.headers.vary).toMatch(/accept-encoding/i);
    const parsed = JSON.parse(decoded(menus).toString()) as { code: number; data: { menuList: unknown[] } };
    expect(parsed.code).toBe(0);
    expect(parsed.data.menuList.length).toBeGreaterThan(10);
    const gzip = await rawGet(server.url, apiPaths.menus, { token, 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decoded(gzip).toString())).toEqual(parsed);
    const none = await rawGet(server.url, apiPaths.menus, { token });
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(none.body.toString())).toEqual(parsed);
    const small = await rawGet(server.url, apiPaths.userSettings, { token, 'accept-encoding': 'br' });
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('replies that repeat (a menu for many users) are compressed once and still decode to the reply of their own language and grants', async () => {
    const admin = await signIn(server, 'sysadmin', 'Sysadmin#2026');
    const staff = await signIn(server, 'staff', 'Staff#2026');
    const menuOf = async (token: string, language: string, encoding: string) => {
      const reply = await rawGet(server.url, apiPaths.menus, { token, language, 'accept-encoding': encoding });
      expect(reply.headers['content-encoding']).toBe(encoding);
      return JSON.parse(decoded(reply).toString()) as { msg: string; data: { menuBaseList: { label: string }[] } };
    };
    const english = await menuOf(admin, 'en-US', 'br');
    const chinese = await menuOf(admin, 'zh-CN', 'br');
    expect(english.msg).not.toBe(chinese.msg);
    expect(english.data.menuBaseList.map((s) => s.label)).not.toEqual(chinese.data.menuBaseList.map((s) => s.label));
    const fewer = await menuOf(staff, 'en-US', 'br');
    expect(fewer.data.menuBaseList.length).toBeLessThan(english.data.menuBaseList.length);
    for (const encoding of ['br', 'gzip']) {
      expect(await menuOf(admin, 'en-US', encoding)).toEqual(english);
      expect(await menuOf(admin, 'zh-CN', encoding)).toEqual(chinese);
      expect(await menuOf(staff, 'en-US', encoding)).toEqual(fewer);
    }
  });
});

describe('the compression of JSON replies', () => {
  it('keeps a bounded set of compressed copies: replies beyond it and then the first ones again decode to themselves', async () => {
    const app = Fastify();
    registerJsonCompression(app);
    app.get('/echo/:n', async (request, reply) => reply.type('application/json').send(JSON.stringify({ n: (request.params as { n: string }).n, pad: 'x'.repeat(2000) })));
    const body = async (n: number, encoding: string) => {
      const reply = await app.inject({ url: `/echo/${n}`, headers: { 'accept-encoding': encoding } });
      expect(reply.headers['content-encoding']).toBe(encoding);
      return JSON.parse((encoding === 'br' ? brotliDecompressSync : gunzipSync)(reply.rawPayload).toString()) as { n: string };
    };
    for (let n = 0; n < 150; n++) expect((await body(n, n % 2 ? 'br' : 'gzip')).n).toBe(String(n));
    for (let n = 0; n < 150; n += 7) expect((await body(n, 'br')).n).toBe(String(n));
    await app.close();
  });
});

describe.each(databases)('a shell built after the server started (%s)', (kind) => {
  it('is served at once, without a restart', async () => {
    const shell = path.join(tempDir('campus-late-shell-'), 'dist');
    const server = await startServer(kind, { env: { SHELL_DIST: shell } });
    try {
      expect((await rawGet(server.url, '/', { accept: 'text/html' })).body.toString()).toContain('npm run build');
      fs.mkdirSync(shell, { recursive: true });
      fs.writeFileSync(path.join(shell, 'index.html'), html);
      const reply = await rawGet(server.url, '/login', { accept: 'text/html', 'accept-encoding': 'br' });
      expect(reply.status).toBe(200);
      expect(reply.headers['cache-control']).toBe('no-cache');
      expect(decoded(reply).toString()).toBe(html);
    } finally {
      await server.close();
    }
  });
});
