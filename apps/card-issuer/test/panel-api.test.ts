import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cardIssuerPaths, readerCodes } from '@campus/contracts';
import type { FastifyInstance } from 'fastify';
import { buildIssuer } from '../src/app.ts';
import { loadIssuerConfig } from '../src/config.ts';
import type { CardReader } from '../src/readers/card-reader.ts';
import { ReaderError } from '../src/readers/card-reader.ts';
import type { PcscReaderView } from '../src/readers/pcsc/pcsc-reader.ts';
import { pcscProblems } from '../src/readers/pcsc/pcsc-problems.ts';
import { VirtualReader, virtualReaderName } from '../src/readers/virtual-reader.ts';

let app: FastifyInstance | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

const newDataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'campus-panel-'));

async function listen(reader: CardReader, readerName: string, env: Record<string, string>): Promise<string> {
  app = await buildIssuer({ config: loadIssuerConfig({ CARD_ISSUER_DATA_DIR: newDataDir(), ...env }), reader, readerName });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

async function start(): Promise<{ url: string; reader: VirtualReader }> {
  const dataDir = newDataDir();
  const reader = new VirtualReader(dataDir);
  return { url: await listen(reader, virtualReaderName, { CARD_ISSUER_DATA_DIR: dataDir }), reader };
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
    const status = (await (await fetch(`${url}/reader/api/status`)).json()) as { data: { driver: string; cards: { kind: string; onReader: boolean }[]; faults: unknown[] } };
    expect(status.data.driver).toBe('virtual');
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

  it('describes every local-issuer call of spec §7 in its OpenAPI document at /docs (CARD_ISSUER_DOCS=on)', async () => {
    const url = await listen(new VirtualReader(newDataDir()), virtualReaderName, { CARD_ISSUER_DOCS: 'on' });
    const doc = (await (await fetch(`${url}/docs/json`)).json()) as { paths: Record<string, unknown> };
    for (const call of Object.values(cardIssuerPaths)) expect(doc.paths[call], call).toBeDefined();
  });
});

/** The PC/SC driver as the panel sees it: the readers pcscd lists, or pcscd down. */
class FakePcscReader implements CardReader {
  readers: PcscReaderView[] | 'pcscd down' = [];

  view(): PcscReaderView[] {
    if (this.readers === 'pcscd down') throw new ReaderError(readerCodes.readerNotConnected, pcscProblems.serviceDown());
    return this.readers;
  }

  async status() {
    return { connected: false, readerName: '', card: null };
  }

  async read(): Promise<never> {
    throw new ReaderError(readerCodes.noCard);
  }

  async write(): Promise<never> {
    throw new ReaderError(readerCodes.noCard);
  }

  async close() {}
}

describe('the reader panel of the PC/SC driver', () => {
  const startPcsc = async () => {
    const reader = new FakePcscReader();
    return { url: await listen(reader, 'PC/SC reader', { CARD_READER: 'pcsc' }), reader };
  };
  type PcscStatus = { code: number; data: { driver: string; readers: PcscReaderView[]; problem: string | null } };
  const status = async (url: string, headers: Record<string, string> = {}) => (await (await fetch(`${url}/reader/api/status`, { headers })).json()) as PcscStatus;

  it('serves the same page, whose script has the PC/SC texts in three languages', async () => {
    const { url } = await startPcsc();
    const page = await fetch(`${url}/reader`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    const script = await (await fetch(`${url}/reader/panel.js`)).text();
    for (const words of ['PC/SC card readers', 'PC/SC 读卡器', 'PC/SC 讀卡器', 'How to use a real reader', '如何使用真实读卡器', '如何使用真實讀卡器']) expect(script).toContain(words);
  });

  it('lists the readers pcscd sees', async () => {
    const { url, reader } = await startPcsc();
    expect((await status(url)).data).toEqual({ driver: 'pcsc', readers: [], problem: null });
    reader.readers = [
      { name: 'ACS ACR1252 1S CL Reader [ACR1252 Dual Reader PICC] 00 00', used: true, card: 'present', atr: '3B8F8001804F0CA000000306030001000000006A', known: { fixedNo: '04A1B2C3', kind: 'mother' } },
      { name: 'ACS ACR1252 1S CL Reader [ACR1252 Dual Reader SAM] 00 01', used: false, card: 'mute', atr: null, known: null },
    ];
    const reply = await status(url, { origin: url });
    expect(reply.code).toBe(0);
    expect(reply.data).toEqual({ driver: 'pcsc', readers: reader.readers, problem: null });
  });

  it('says why there are no readers when pcscd is not running, in the caller’s language', async () => {
    const { url, reader } = await startPcsc();
    reader.readers = 'pcscd down';
    const english = await status(url, { language: 'en-US' });
    expect(english.code).toBe(0);
    expect(english.data.readers).toEqual([]);
    expect(english.data.problem).toMatch(/not connected.*the PC\/SC service \(pcscd\) is not running/);
    expect((await status(url, { language: 'zh-CN' })).data.problem).toMatch(/读卡器未连接.*PC\/SC 服务（pcscd）未运行/);
  });

  it('has none of the virtual reader’s card moves, and answers the panel only', async () => {
    const { url } = await startPcsc();
    for (const action of ['place', 'remove', 'blank', 'mother', 'fail']) expect((await post(`${url}/reader/api/${action}`, {})).status, action).toBe(404);
    expect((await fetch(`${url}/reader/api/status`, { headers: { origin: 'http://127.0.0.1:6300' } })).status).toBe(403);
    expect((await fetch(`${url}/reader/api/status`, { headers: { origin: 'https://elsewhere.example' } })).status).toBe(403);
  });
});
