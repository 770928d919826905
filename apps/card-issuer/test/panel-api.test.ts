import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { blankImage } from '@campus/card-crypto';
import { cardIssuerPaths, readerCodes, shellVersion } from '@campus/contracts';
import type { FastifyInstance } from 'fastify';
import { buildIssuer } from '../src/app.ts';
import { loadIssuerConfig } from '../src/config.ts';
import type { CardOnReader, CardReader } from '../src/readers/card-reader.ts';
import { ReaderError } from '../src/readers/card-reader.ts';
import type { PcscReaderView } from '../src/readers/pcsc/pcsc-reader.ts';
import { pcscProblems } from '../src/readers/pcsc/pcsc-problems.ts';
import { VirtualReader, virtualReaderName } from '../src/readers/virtual-reader.ts';
// @ts-expect-error: a plain browser module without type declarations
import { panelLanguage } from '../panel/panel-language.js';

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
    const status = (await (await fetch(`${url}/reader/api/status`)).json()) as { data: { driver: string; version: string; cards: { kind: string; onReader: boolean }[]; faults: unknown[] } };
    expect(status.data.driver).toBe('virtual');
    expect(status.data.version).toBe(shellVersion);
    expect(status.data.cards).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'mother', onReader: true }), expect.objectContaining({ kind: 'blank', onReader: false })]));
    expect(status.data.faults).toEqual([{ op: 'write', code: 990321, remaining: 2 }]);
    expect((await post(`${url}/reader/api/remove`, {}, own)).status).toBe(200);
    expect((await reader.status()).card).toBeNull();
    // bad input: named, in the panel's language
    const bad = await post(`${url}/reader/api/mother`, { customerNo: '0123', customerPwd: 'x' }, { ...own, language: 'en-US' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { msg: string }).msg).toContain('the customer number must not start with 0: use 123');
    const badInChinese = await post(`${url}/reader/api/mother`, { customerNo: '0123', customerPwd: 'x' }, { ...own, language: 'zh-MO' });
    expect(((await badInChinese.json()) as { msg: string }).msg).toContain('客戶編號不能以 0 開頭：請使用 123');
    expect((await post(`${url}/reader/api/fail`, { op: 'write', code: 12345 }, own)).status).toBe(400);
    const unknownCard = await post(`${url}/reader/api/place`, { fixedNo: '0BADC0DE' }, { ...own, language: 'zh-CN' });
    expect(unknownCard.status).toBe(400);
    expect(((await unknownCard.json()) as { msg: string }).msg).toContain('没有卡片 0BADC0DE：请先用“blank”制作一张');
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

/** The PC/SC driver as the panel sees it: the readers pcscd lists, or pcscd down; the card a read finds. */
class FakePcscReader implements CardReader {
  readers: PcscReaderView[] | 'pcscd down' = [];
  card: CardOnReader | ReaderError = new ReaderError(readerCodes.noCard);
  reads = 0;

  view(): PcscReaderView[] {
    if (this.readers === 'pcscd down') throw new ReaderError(readerCodes.readerNotConnected, pcscProblems.serviceDown());
    return this.readers;
  }

  async status() {
    return { connected: false, readerName: '', card: null };
  }

  async read(): Promise<CardOnReader> {
    this.reads += 1;
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (this.card instanceof ReaderError) throw this.card;
    return this.card;
  }

  async write(): Promise<never> {
    throw new ReaderError(readerCodes.noCard);
  }

  async close() {}
}

describe('the reader panel of the PC/SC driver', () => {
  const startPcsc = async (env: Record<string, string> = {}) => {
    const reader = new FakePcscReader();
    return { url: await listen(reader, 'PC/SC reader', { CARD_READER: 'pcsc', ...env }), reader };
  };
  type PcscStatus = { code: number; data: { driver: string; version: string; platform: string; wantedReader: string | null; readers: PcscReaderView[]; problem: string | null } };
  const status = async (url: string, headers: Record<string, string> = {}) => (await (await fetch(`${url}/reader/api/status`, { headers })).json()) as PcscStatus;

  it('serves the same page, whose script has the PC/SC texts in three languages', async () => {
    const { url } = await startPcsc();
    const page = await fetch(`${url}/reader`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    const script = await (await fetch(`${url}/reader/panel.js`)).text();
    for (const words of ['PC/SC card readers', 'PC/SC 读卡器', 'PC/SC 讀卡器', 'How to use a real reader', '如何使用真实读卡器', '如何使用真實讀卡器']) expect(script).toContain(words);
    // the Windows texts name its smart-card service, not pcscd
    for (const words of ['Windows smart-card service (Smart Card)', 'Windows 智能卡服务', 'Windows 智能卡服務']) expect(script).toContain(words);
    expect(await (await fetch(`${url}/reader`)).text()).toContain('<script type="module" src="/reader/panel.js">');
    const language = await fetch(`${url}/reader/panel-language.js`);
    expect(language.headers.get('content-type')).toMatch(/text\/javascript/);
    expect(await language.text()).toContain('export function panelLanguage');
  });

  it('the panel speaks the first of the PC’s browser languages it knows (navigator.languages), else English', () => {
    expect(panelLanguage(['zh-MO', 'en-US'])).toBe('zh-MO');
    expect(panelLanguage(['zh-Hant-TW'])).toBe('zh-MO');
    expect(panelLanguage(['zh-HK', 'zh-CN'])).toBe('zh-MO');
    expect(panelLanguage(['zh-CN', 'zh'])).toBe('zh-CN');
    expect(panelLanguage(['zh'])).toBe('zh-CN');
    expect(panelLanguage(['fr-FR', 'zh-SG', 'en'])).toBe('zh-CN');
    expect(panelLanguage(['fr-FR', 'en-GB'])).toBe('en-US');
    expect(panelLanguage(['de-DE'])).toBe('en-US');
    expect(panelLanguage([])).toBe('en-US');
  });

  it('lists the readers pcscd sees, with the issuer’s version and the PC’s system', async () => {
    const { url, reader } = await startPcsc();
    const none = (await status(url)).data;
    expect(none).toMatchObject({ driver: 'pcsc', version: shellVersion, platform: process.platform, wantedReader: null, readers: [] });
    reader.readers = [
      { name: 'ACS ACR1252 1S CL Reader [ACR1252 Dual Reader PICC] 00 00', used: true, card: 'present', atr: '3B8F8001804F0CA000000306030001000000006A', known: { fixedNo: '04A1B2C3', kind: 'mother' } },
      { name: 'ACS ACR1252 1S CL Reader [ACR1252 Dual Reader SAM] 00 01', used: false, card: 'mute', atr: null, known: null },
    ];
    const reply = await status(url, { origin: url });
    expect(reply.code).toBe(0);
    expect(reply.data).toEqual({ driver: 'pcsc', version: shellVersion, platform: process.platform, wantedReader: null, readers: reader.readers, problem: null });
  });

  it('says why when the service lists no reader at all: plug one in, in the caller’s language', async () => {
    const { url } = await startPcsc();
    expect((await status(url, { language: 'en-US' })).data.problem).toBe('The card reader is not connected: plug it in; the smart-card service sees no card reader: plug the reader in (USB); it shows here within a few seconds');
    expect((await status(url, { language: 'zh-CN' })).data.problem).toBe('读卡器未连接：请连接读卡器；智能卡服务没有看到任何读卡器：请连接读卡器（USB），几秒钟内它会显示在这里');
    expect((await status(url, { language: 'zh-MO' })).data.problem).toBe('讀卡器未連接：請連接讀卡器；智能卡服務沒有看到任何讀卡器：請連接讀卡器（USB），幾秒鐘內它會顯示在這裡');
  });

  it('says why none of the readers is in use when CARD_READER_NAME names another', async () => {
    const { url, reader } = await startPcsc({ CARD_READER_NAME: 'OMNIKEY 3121' });
    reader.readers = [{ name: 'ACS ACR39U ICC Reader 00 00', used: false, card: 'empty', atr: null, known: null }];
    const english = (await status(url, { language: 'en-US' })).data;
    expect(english.wantedReader).toBe('OMNIKEY 3121');
    expect(english.problem).toContain('none of these readers is the one CARD_READER_NAME names ("OMNIKEY 3121")');
    expect((await status(url, { language: 'zh-MO' })).data.problem).toContain('這些讀卡器都不是 CARD_READER_NAME 指定的讀卡器（"OMNIKEY 3121"）');
    reader.readers = [{ name: 'OMNIKEY 3121 00 00', used: true, card: 'empty', atr: null, known: null }];
    expect((await status(url)).data.problem).toBeNull();
  });

  it('reads the card on the reader in use for the panel: its fixed number and kind, or why not', async () => {
    const { url, reader } = await startPcsc();
    reader.card = { fixedNo: '04A1B2C3D4E5F6', image: blankImage() };
    const read = (await (await post(`${url}/reader/api/read`, {}, { origin: url })).json()) as { code: number; data: { fixedNo: string; kind: string } };
    expect(read).toMatchObject({ code: 0, data: { fixedNo: '04A1B2C3D4E5F6', kind: 'blank' } });
    // one card operation at a time, as for the shell's calls
    const [first, second] = await Promise.all([post(`${url}/reader/api/read`, {}), post(`${url}/reader/api/read`, {})]);
    expect([((await first.json()) as { code: number }).code, ((await second.json()) as { code: number }).code].sort()).toEqual([0, readerCodes.readerBusy]);
    reader.card = new ReaderError(readerCodes.unknownCard, pcscProblems.noDataFile('0101'));
    const refused = (await (await post(`${url}/reader/api/read`, {}, { language: 'en-US' })).json()) as { code: number; msg: string };
    expect(refused.code).toBe(readerCodes.unknownCard);
    expect(refused.msg).toContain('the card has no data file 0101 (CARD_FILE_ID)');
    // the shell's pages may not make the reader read
    const reads = reader.reads;
    expect((await post(`${url}/reader/api/read`, {}, { origin: 'http://127.0.0.1:6300' })).status).toBe(403);
    expect(reader.reads).toBe(reads);
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
