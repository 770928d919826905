import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildAdminCard } from '@campus/card-crypto';
import { cardIssuerPaths, readerCodes } from '@campus/contracts';
import { buildIssuer } from '../src/app.ts';
import { loadIssuerConfig } from '../src/config.ts';
import { VirtualReader, virtualReaderName } from '../src/readers/virtual-reader.ts';

// Issue 25 item 5: what every reply of the issuer tells the browser about caching, sniffing and framing.
const shellOrigin = 'http://127.0.0.1:6300';
const token = 'headers-token-0123456789';

let apps: FastifyInstance[] = [];
afterEach(async () => {
  for (const app of apps) await app.close();
  apps = [];
});

async function start(env: Record<string, string> = {}): Promise<{ url: string; reader: VirtualReader }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-issuer-headers-'));
  const reader = new VirtualReader(dataDir);
  const app = await buildIssuer({ config: loadIssuerConfig({ CARD_ISSUER_DATA_DIR: dataDir, CARD_ISSUER_ALLOWED_ORIGINS: shellOrigin, ...env }), reader, readerName: virtualReaderName });
  apps.push(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, reader };
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', language: 'en-US', carddevicetoken: token, origin: shellOrigin, ...headers }, body: JSON.stringify(body) });

function expectNeverSniffedNorFramed(reply: Response, what: string): void {
  expect(reply.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(reply.headers.get('x-frame-options'), what).toBe('DENY');
  expect(reply.headers.get('content-security-policy'), what).toContain("frame-ancestors 'none'");
}

describe('the card issuer: security headers of its replies', () => {
  it('a card image, a pairing and every refusal are answered with no-store, nosniff and no framing', async () => {
    const { url, reader } = await start();
    const pairing = await post(`${url}${cardIssuerPaths.addIdentity}`, { cardDeviceToken: token });
    expect(pairing.headers.get('cache-control')).toBe('no-store');
    expectNeverSniffedNorFramed(pairing, 'AddIdentity');

    const image = buildAdminCard({ systemKey: Buffer.alloc(16, 7), fixedNo: '04A1B2C3', customerNo: '10001', issueSeq: 1, oprtNo: 'sysadmin', cardNum: 1, tenantCode: '1001' });
    reader.place(reader.addCard(image, '04A1B2C3'));
    const read = await post(`${url}${cardIssuerPaths.readBaseInfo}`, {});
    const body = (await read.json()) as { code: number; data: { image: string } };
    expect(body.code).toBe(0);
    expect(body.data.image).toBe(image.toString('hex'));
    expect(read.headers.get('cache-control')).toBe('no-store');
    expectNeverSniffedNorFramed(read, 'ReadBaseInfo');

    const refusals: [string, Response][] = [
      ['not paired', await post(`${url}${cardIssuerPaths.readBaseInfo}`, {}, { carddevicetoken: 'somebody-else-0123456' })],
      ['bad input', await post(`${url}${cardIssuerPaths.checkOprtLoginCardCanIssue}`, { cardKind: 12 })],
      ['foreign origin', await post(`${url}${cardIssuerPaths.addIdentity}`, { cardDeviceToken: token }, { origin: 'https://evil.example' })],
      ['unknown path', await fetch(`${url}/api/NoSuchCall`)],
    ];
    for (const [what, reply] of refusals) {
      expect(reply.headers.get('cache-control'), what).toBe('no-store');
      expectNeverSniffedNorFramed(reply, what);
    }
    expect(((await refusals[0]![1].json()) as { code: number }).code).toBe(readerCodes.notPaired);
  });

  it('the token a relayed card sign-in answers is not kept by any cache', async () => {
    const { url } = await start();
    await post(`${url}${cardIssuerPaths.addIdentity}`, { cardDeviceToken: token });
    // without a card the sign-in stops before the relay; the reply's headers are those of every envelope
    const login = await post(`${url}${cardIssuerPaths.login}`, { cardKind: 11 });
    expect(((await login.json()) as { code: number }).code).toBe(readerCodes.noCard);
    expect(login.headers.get('cache-control')).toBe('no-store');
    expectNeverSniffedNorFramed(login, 'Login');
  });

  it('the reader panel keeps its own content policy, is never framed and is not sniffed', async () => {
    const { url } = await start();
    for (const file of ['/reader', '/reader/panel.js', '/reader/panel.css']) {
      const reply = await fetch(`${url}${file}`);
      expect(reply.status, file).toBe(200);
      expect(reply.headers.get('content-security-policy'), file).toContain("default-src 'self'");
      expectNeverSniffedNorFramed(reply, file);
    }
    const status = await fetch(`${url}/reader/api/status`);
    expect(status.headers.get('cache-control')).toBe('no-store');
    expectNeverSniffedNorFramed(status, 'panel status');
  });
});

describe('the card issuer: its API description page /docs', () => {
  it('is not served by default', async () => {
    const { url } = await start();
    for (const page of ['/docs', '/docs/json', '/docs/static/index.html']) {
      const reply = await fetch(`${url}${page}`);
      expect(reply.status, page).toBe(404);
      expectNeverSniffedNorFramed(reply, page);
    }
  });

  it('is served with CARD_ISSUER_DOCS=on, under a content policy that lets no site frame it', async () => {
    const { url } = await start({ CARD_ISSUER_DOCS: 'on' });
    const page = await fetch(`${url}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expectNeverSniffedNorFramed(page, '/docs');
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain('unsafe');
    const script = await fetch(`${url}/docs/static/swagger-initializer.js`);
    expect(script.status).toBe(200);
    expectNeverSniffedNorFramed(script, 'swagger-initializer.js');
    const json = await fetch(`${url}/docs/json`);
    expect(json.status).toBe(200);
    expect(((await json.json()) as { info: { title: string } }).info.title).toBe('Campus card issuer');
    expectNeverSniffedNorFramed(json, '/docs/json');
  });

  it('the setting takes on or off and names the variable otherwise', () => {
    expect(loadIssuerConfig({}).docs).toBe(false);
    expect(loadIssuerConfig({ CARD_ISSUER_DOCS: 'on' }).docs).toBe(true);
    expect(loadIssuerConfig({ CARD_ISSUER_DOCS: 'off' }).docs).toBe(false);
    expect(() => loadIssuerConfig({ CARD_ISSUER_DOCS: 'maybe' })).toThrow(/CARD_ISSUER_DOCS must be "on" or "off", got "maybe"/);
  });
});
