import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TenantSettings } from '@campus/contracts';
import { apiPaths } from '@campus/contracts';
import { loadConfig, repoRoot } from '../../src/config.ts';
import { call, databases, startServer, tempDir } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';

describe.each(databases)("the card issuer's address (%s)", (kind) => {
  let server: TestServer;
  afterEach(async () => {
    await server?.close();
  });

  it('the login settings name it (CARD_ISSUER_URL, default the spec port on this PC) and the page policy lets the shell call it', async () => {
    server = await startServer(kind);
    const settings = await call<TenantSettings>(server, 'GET', `${apiPaths.tenantSettings}?guid=abc`);
    expect(settings.body.data.cardIssuerUrl).toBe('http://127.0.0.1:18085');
    expect(settings.headers.get('content-security-policy')).toContain("connect-src 'self' http://127.0.0.1:18085 http://localhost:18085");
    await server.close();
    server = await startServer(kind, { env: { CARD_ISSUER_URL: 'http://localhost:18190/' } });
    const moved = await call<TenantSettings>(server, 'GET', `${apiPaths.tenantSettings}?guid=abc`);
    expect(moved.body.data.cardIssuerUrl).toBe('http://localhost:18190');
    expect(moved.headers.get('content-security-policy')).toContain("connect-src 'self' http://localhost:18190 http://127.0.0.1:18190");
    expect(moved.headers.get('content-security-policy')).not.toContain('18085');
  });

  it('without CARD_ISSUER_URL, the port the issuer was given (CARD_ISSUER_PORT, as npm start hands it to both) is the one named', async () => {
    server = await startServer(kind, { env: { CARD_ISSUER_PORT: '7401' } });
    const settings = await call<TenantSettings>(server, 'GET', `${apiPaths.tenantSettings}?guid=abc`);
    expect(settings.body.data.cardIssuerUrl).toBe('http://127.0.0.1:7401');
    expect(settings.headers.get('content-security-policy')).toContain("connect-src 'self' http://127.0.0.1:7401 http://localhost:7401");
    expect(settings.headers.get('content-security-policy')).not.toContain('18085');
    // the demo's guides name that address, not the spec's default
    for (const guide of ['card-issuer-guide.txt', 'card-reader-setup.txt']) {
      expect(await (await fetch(`${server.url}/tools/${guide}`)).text(), guide).toContain('http://127.0.0.1:7401');
    }
    // an address given outright still wins
    expect(loadConfig({ CARD_ISSUER_PORT: '7401', CARD_ISSUER_URL: 'http://127.0.0.1:18190' }).cardIssuerUrl).toBe('http://127.0.0.1:18190');
    for (const bad of ['0', '70000', 'port']) expect(() => loadConfig({ CARD_ISSUER_PORT: bad }), bad).toThrow(/CARD_ISSUER_PORT/);
  });

  it('a value that is not an http(s) origin stops the start with a message naming it', () => {
    for (const bad of ['ftp://127.0.0.1:18085', 'http://127.0.0.1:18085/api', 'not a url', 'http://user:pw@127.0.0.1:18085']) {
      expect(() => loadConfig({ CARD_ISSUER_URL: bad }), bad).toThrow(/CARD_ISSUER_URL/);
    }
  });
});

describe.each(databases)('the card issuer downloads under /tools (%s)', (kind) => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function withDownloads(mjSystem: string, language = 'en-US') {
    const dir = tempDir('campus-issuer-downloads-');
    fs.writeFileSync(path.join(dir, 'card-issuer-linux-x64.tar.gz'), 'linux archive');
    fs.writeFileSync(path.join(dir, 'card-issuer-win-x64.zip'), 'windows archive');
    server = await startServer(kind, { env: { MJ_SYSTEM: mjSystem, ISSUER_DOWNLOADS_DIR: dir } });
    const list = (await (await fetch(`${server.url}${apiPaths.toolsList}`, { headers: { language } })).json()) as { fileName: string; showName: string; use: string; url: string }[];
    return list;
  }

  it('the names and purposes are in the language asked for, the demo tools and the downloads alike', async () => {
    const said = async (language: string) => (await withDownloads('21', language)).map((tool) => [tool.showName, tool.use]);
    const english = await said('en-US');
    expect(english).toContainEqual(['Card issuer (Windows x64)', 'For the operator PC beside the card reader: unzip, then run start.cmd']);
    expect(english).toContainEqual(['Employee import template', 'Template for importing employees and their cards']);
    await server?.close();
    const traditional = await said('zh-MO');
    expect(traditional).toContainEqual(['發卡器（Linux x64）', '用於讀卡器旁的操作員電腦：解壓後執行 ./start.sh']);
    expect(traditional).toContainEqual(['員工匯入範本', '用於匯入員工及其卡片的範本']);
    await server?.close();
    const simplified = await said('zh-CN');
    expect(simplified).toContainEqual(['读卡器设置指南', '在操作员电脑上安装并检查读卡器']);
    // nothing English is left in a Chinese list but the platform names and the commands to run
    for (const [name, use] of [...simplified, ...traditional]) expect(`${name} ${use}`.replace(/Windows|Linux|x64|English|start\.cmd|\.\/start\.sh/g, '')).not.toMatch(/[A-Za-z]{3,}/);
  });

  it('a gate deployment offers the built downloads with how to start them, and serves them', async () => {
    const list = await withDownloads('21');
    const linux = list.find((t) => t.fileName === 'card-issuer-linux-x64.tar.gz');
    expect(linux?.use).toContain('./start.sh');
    expect(list.find((t) => t.fileName === 'card-issuer-win-x64.zip')?.use).toContain('start.cmd');
    const file = await fetch(`${server?.url}${linux?.url}`);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe('linux archive');
  });

  it('and, after them, the guide for the operator PC (docs/operator-pc.md, which the release carries)', async () => {
    const list = await withDownloads('21');
    const names = list.map((t) => t.fileName);
    expect(names.indexOf('card-issuer-operator-pc-guide.md')).toBe(names.indexOf('card-issuer-win-x64.zip') + 1);
    const guide = list.find((t) => t.fileName === 'card-issuer-operator-pc-guide.md');
    expect(guide).toMatchObject({ showName: 'Operator PC guide (card issuer)', url: '/tools/card-issuer-operator-pc-guide.md' });
    expect(guide?.use).toContain('what each reader code means');
    const file = await fetch(`${server?.url}${guide?.url}`);
    expect(file.headers.get('content-disposition')).toContain('attachment; filename="card-issuer-operator-pc-guide.md"');
    const text = await file.text();
    expect(text).toBe(fs.readFileSync(path.join(repoRoot, 'docs', 'operator-pc.md'), 'utf8'));
    expect(text).toMatch(/^# The operator's PC\n/);
    await server?.close();
    expect((await withDownloads('21', 'zh-MO')).find((t) => t.fileName === 'card-issuer-operator-pc-guide.md')?.showName).toBe('操作員電腦指南（發卡器）');
  });

  it('any other deployment does not', async () => {
    const list = await withDownloads('1');
    expect(list.some((t) => t.fileName === 'card-issuer-linux-x64.tar.gz' || t.fileName === 'card-issuer-win-x64.zip' || t.fileName === 'card-issuer-operator-pc-guide.md')).toBe(false);
    expect((await fetch(`${server?.url}/tools/card-issuer-win-x64.zip`)).status).toBe(404);
    expect((await fetch(`${server?.url}/tools/card-issuer-operator-pc-guide.md`)).status).toBe(404);
  });
});
