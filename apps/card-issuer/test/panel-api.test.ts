import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cardIssuerPaths } from '@campus/contracts';
import type { FastifyInstance } from 'fastify';
import { buildIssuer } from '../src/app.ts';
import { loadIssuerConfig } from '../src/config.ts';
import { VirtualReader, virtualReaderName } from '../src/readers/virtual-reader.ts';

let app: FastifyInstance | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

async function start(): Promise<{ url: string; reader: VirtualReader }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-panel-'));
  const reader = new VirtualReader(dataDir);
  app = await buildIssuer({ config: loadIssuerConfig({ CARD_ISSUER_DATA_DIR: dataDir }), reader, readerName: virtualReaderName });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, reader };
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('the virtual reader panel and its API', () => {
  it('serves the panel page, its script (three languages) and its style under a strict content policy', async () => {
    const { url } = await start();
    const page = await fetch(`${url}/reader`);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await page.text();
    expect(html).toContain('<select id="language">');
    expect(html).toContain('role="status"');
    const script = await (await fetch(`${url}/reader/panel.js`)).text();
    for (const words of ['Virtual card reader', '虚拟读卡器', '虛擬讀卡器']) expect(script).toContain(words);
    expect((await fetch(`${url}/reader/panel.css`)).status).toBe(200);
  });

  it('makes, places and removes cards and sets faults; the reader sees it at once', async () => {
    const { url, reader } = await start();
    const own = { origin: url };
    const blank = (await (await post(`${url}/reader/api/blank`, { place: true }, own)).json()) as { data: { fixedNo: string } };
    expect((await reader.status()).card).toEqual({ fixedNo: blank.data.fixedNo });
    const mother = (await (await post(`${url}/reader/api/mother`, { customerNo: '10001', customerPwd: 'Customer#2026' }, own)).json()) as { data: { fixedNo: string } };
    expect((await post(`${url}/reader/api/place`, { fixedNo: mother.data.fixedNo }, own)).status).toBe(200);
    expect((await post(`${url}/reader/api/fail`, { op: 'write', code: 990321, times: 2 }, own)).status).toBe(200);
    const status = (await (await fetch(`${url}/reader/api/status`)).json()) as { data: { cards: { kind: string; onReader: boolean }[]; faults: unknown[] } };
    expect(status.data.cards).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'mother', onReader: true }), expect.objectContaining({ kind: 'blank', onReader: false })]));
    expect(status.data.faults).toEqual([{ op: 'write', code: 990321, remaining: 2 }]);
    expect((await post(`${url}/reader/api/remove`, {}, own)).status).toBe(200);
    expect((await reader.status()).card).toBeNull();
    // bad input: named
    const bad = await post(`${url}/reader/api/mother`, { customerNo: '0123', customerPwd: 'x' }, own);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { msg: string }).msg).toContain('must not start with 0');
    expect((await post(`${url}/reader/api/fail`, { op: 'write', code: 12345 }, own)).status).toBe(400);
    expect((await post(`${url}/reader/api/place`, { fixedNo: '0BADC0DE' }, own)).status).toBe(400);
  });

  it('only the panel itself (or a caller on this PC without an Origin) may move cards: not even the shell', async () => {
    const { url } = await start();
    const fromShell = await post(`${url}/reader/api/blank`, {}, { origin: 'http://127.0.0.1:6300' });
    expect(fromShell.status).toBe(403);
    expect((await post(`${url}/reader/api/blank`, {})).status).toBe(200);
  });

  it('describes every local-issuer call of spec §7 in its OpenAPI document at /docs', async () => {
    const { url } = await start();
    const doc = (await (await fetch(`${url}/docs/json`)).json()) as { paths: Record<string, unknown> };
    for (const call of Object.values(cardIssuerPaths)) expect(doc.paths[call], call).toBeDefined();
  });
});
