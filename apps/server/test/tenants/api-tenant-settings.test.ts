import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TenantSettings } from '@campus/contracts';
import { apiPaths, defaultSkin } from '@campus/contracts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { writeDemoTools } from '../../src/seed/seed.ts';
import { call, databases, startServer, tempDir } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';

describe.each(databases)('tenant skin and the operations platform address in GetSettings (%s)', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(kind);
  });
  afterAll(async () => {
    await server?.close();
  });

  const settings = (tenantCode?: string, on: { url: string } = server) =>
    call<TenantSettings>(on, 'GET', `${apiPaths.tenantSettings}?guid=0f8fad5b`, undefined, { headers: tenantCode ? { tenantcode: tenantCode } : {} });

  it('the demo tenants have different skins; no OPS_PLATFORM_URL gives an empty address', async () => {
    expect((await settings()).body.data).toMatchObject({ code: '1001', skin: 'DASUI001', opsPlatformUrl: '' });
    expect((await settings('1002')).body.data).toMatchObject({ code: '1002', skin: 'DASUI003', opsPlatformUrl: '' });
  });

  it('a tenant stored without a skin gets the default; an unknown skin in the row is answered as the default', async () => {
    await server.handle.db
      .insertInto('tenants')
      .values({ code: '1003', name_i18n: '{"en-US":"Third"}', system_name_i18n: '{"en-US":"Third"}', header_logo_id: null, login_logo_id: null, login_bg_id: null, system_logo_id: null, created_at: Date.now() })
      .execute();
    const row = await server.handle.db.selectFrom('tenants').select('skin').where('code', '=', '1003').executeTakeFirstOrThrow();
    expect(row.skin).toBe('DASUI001');
    await server.handle.db.updateTable('tenants').set({ skin: 'DASUI004' }).where('code', '=', '1003').execute();
    expect((await settings('1003')).body.data.skin).toBe('DASUI004');
    for (const stored of ['DASUI999', '', '<script>', 'dasui003']) {
      await server.handle.db.updateTable('tenants').set({ skin: stored }).where('code', '=', '1003').execute();
      expect([stored, (await settings('1003')).body.data.skin]).toEqual([stored, defaultSkin]);
    }
  });

  it('OPS_PLATFORM_URL is handed to the login page as configured', async () => {
    const other = await startServer(kind, { env: { OPS_PLATFORM_URL: 'https://ops.example.com/console?from=campus', PRIVATE_DEPLOYMENT: 'on' } });
    try {
      const data = (await settings(undefined, other)).body.data;
      expect(data).toMatchObject({ isPrivateDeployment: true, opsPlatformUrl: 'https://ops.example.com/console?from=campus' });
    } finally {
      await other.close();
    }
  });
});

describe('OPS_PLATFORM_URL', () => {
  it('accepts nothing, or an absolute http(s) URL', () => {
    expect(loadConfig({}).opsPlatformUrl).toBe('');
    expect(loadConfig({ OPS_PLATFORM_URL: '   ' }).opsPlatformUrl).toBe('');
    expect(loadConfig({ OPS_PLATFORM_URL: 'http://10.0.0.5:8080/ops' }).opsPlatformUrl).toBe('http://10.0.0.5:8080/ops');
    expect(loadConfig({ OPS_PLATFORM_URL: ' https://ops.example.com ' }).opsPlatformUrl).toBe('https://ops.example.com');
  });

  it('refuses anything else at start with a message naming the variable', () => {
    for (const value of ['ops.example.com', '/ops', '//ops.example.com', 'ftp://ops.example.com', 'javascript:alert(1)', 'data:text/html,x', 'https://user:secret@ops.example.com/', 'https://ops.example.com/a b']) {
      expect(() => loadConfig({ OPS_PLATFORM_URL: value })).toThrow(ConfigError);
      expect(() => loadConfig({ OPS_PLATFORM_URL: value })).toThrow(/^Invalid configuration: OPS_PLATFORM_URL /);
    }
  });
});

describe.each(databases)('demo tools (%s)', (kind) => {
  it('a demo start lists the tools and serves the card-issuer guide in three languages', async () => {
    const server = await startServer(kind);
    try {
      const list = (await (await fetch(`${server.url}${apiPaths.toolsList}`)).json()) as { fileName: string; url: string }[];
      const guide = list.find((t) => t.fileName === 'card-issuer-guide.txt');
      expect(guide?.url).toBe('/tools/card-issuer-guide.txt');
      const res = await fetch(`${server.url}${guide?.url ?? ''}`);
      expect(res.status).toBe(200);
      const text = await res.text();
      for (const heading of ['English', '简体中文', '繁體中文', '18085']) expect(text).toContain(heading);
      for (const t of list) {
        const file = await fetch(`${server.url}${t.url}`);
        expect([t.fileName, file.status, (await file.arrayBuffer()).byteLength > 0]).toEqual([t.fileName, 200, true]);
      }
    } finally {
      await server.close();
    }
  });
});

describe('writeDemoTools', () => {
  it("adds what is missing and never overwrites a customer's list or files", () => {
    const dir = tempDir();
    try {
      const tools = path.join(dir, 'tools');
      fs.mkdirSync(tools);
      fs.writeFileSync(path.join(tools, 'tools.json'), '[{"showName":"Ours","use":"x","fileName":"ours.txt"}]');
      fs.writeFileSync(path.join(tools, 'card-issuer-guide.txt'), 'our own guide');
      writeDemoTools(dir, 'http://127.0.0.1:18085');
      expect(fs.readFileSync(path.join(tools, 'tools.json'), 'utf8')).toBe('[{"showName":"Ours","use":"x","fileName":"ours.txt"}]');
      expect(fs.readFileSync(path.join(tools, 'card-issuer-guide.txt'), 'utf8')).toBe('our own guide');
      expect(fs.existsSync(path.join(tools, 'card-reader-setup.txt'))).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
