import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { sm2 } from 'sm-crypto-v2';
import { afterEach, describe, expect, it } from 'vitest';
import { buildAdminCard, buildSystemKeyCard, initialiseMotherCard, issuerDeviceId, makeMotherCard, sm3Hex, systemKeyId, verifyIssuerChallenge } from '@campus/card-crypto';
import { apiPaths, cardIssuerPaths, judgeIssuerVersion, readerCodes, shellVersion } from '@campus/contracts';
import { buildIssuer } from '../src/app.ts';
import { loadIssuerConfig } from '../src/config.ts';
import { reportedHostName } from '../src/device-identity.ts';
import { VirtualReader, virtualReaderName } from '../src/readers/virtual-reader.ts';

const systemKey = Buffer.from('00112233445566778899aabbccddeeff', 'hex');
const shellOrigin = 'http://127.0.0.1:6300';
const token = 'pairing-token-0123456789';

interface Running {
  url: string;
  app: FastifyInstance;
  reader: VirtualReader;
  dataDir: string;
}

let running: Running[] = [];
let gateways: FastifyInstance[] = [];
afterEach(async () => {
  for (const r of running) await r.app.close();
  for (const g of gateways) await g.close();
  running = [];
  gateways = [];
});

async function start(dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-issuer-')), allowed = shellOrigin): Promise<Running> {
  const config = loadIssuerConfig({ CARD_ISSUER_DATA_DIR: dataDir, CARD_ISSUER_ALLOWED_ORIGINS: allowed });
  const reader = new VirtualReader(dataDir);
  const app = await buildIssuer({ config, reader, readerName: virtualReaderName });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const r = { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, app, reader, dataDir };
  running.push(r);
  return r;
}

interface Answer {
  status: number;
  headers: Headers;
  body: { code: number; msg: string; data: Record<string, unknown> | null };
}

async function post(r: Running, urlPath: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${r.url}${urlPath}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', language: 'en-US', carddevicetoken: token, origin: shellOrigin, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Answer['body'] };
}

async function paired(r: Running): Promise<{ devicePublicKey: string }> {
  const reply = await post(r, cardIssuerPaths.addIdentity, { cardDeviceToken: token });
  expect(reply.body.code).toBe(0);
  return reply.body.data as { devicePublicKey: string };
}

/** The system key data as the server seals it to the issuer's device key (GetSysKeyData, issue 13). */
function sysKeyData(devicePublicKey: string, key = systemKey): string {
  return sm2.doEncrypt(new Uint8Array(Buffer.concat([key, systemKeyId(key)])), devicePublicKey, 1);
}

async function withKey(r: Running): Promise<void> {
  const { devicePublicKey } = await paired(r);
  expect((await post(r, cardIssuerPaths.init, { sysKeyData: sysKeyData(devicePublicKey) })).body.code).toBe(0);
}

const adminImage = (fixedNo: string, issueSeq = 1) =>
  buildAdminCard({ systemKey, fixedNo, customerNo: '10001', issueSeq, oprtNo: 'sysadmin', cardNum: 1, tenantCode: '1001' }).toString('hex');

describe('the card issuer: who may call it', () => {
  it('answers the configured shell origin with CORS and the private-network pre-flight; refuses other origins and hosts', async () => {
    const r = await start();
    const ok = await post(r, cardIssuerPaths.addIdentity, { cardDeviceToken: token });
    expect(ok.headers.get('access-control-allow-origin')).toBe(shellOrigin);
    const preflight = await fetch(`${r.url}${cardIssuerPaths.login}`, {
      method: 'OPTIONS',
      headers: { origin: shellOrigin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, carddevicetoken', 'access-control-request-private-network': 'true' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-private-network')).toBe('true');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('carddevicetoken');

    const foreign = await post(r, cardIssuerPaths.addIdentity, { cardDeviceToken: token }, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    expect(foreign.body.msg).toContain('https://evil.example');
    const foreignPreflight = await fetch(`${r.url}${cardIssuerPaths.login}`, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    expect(foreignPreflight.status).toBe(403);
    expect(foreignPreflight.headers.get('access-control-allow-origin')).toBeNull();

    // DNS rebinding: a page of another name that resolves to 127.0.0.1 (fetch may not set Host: node:http does)
    const rebound = await new Promise<number>((resolve, reject) => {
      const request = http.request(`${r.url}${cardIssuerPaths.addIdentity}`, { method: 'POST', headers: { host: `evil.example:${new URL(r.url).port}`, 'content-type': 'application/json' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      request.on('error', reject);
      request.end(JSON.stringify({ cardDeviceToken: token }));
    });
    expect(rebound).toBe(403);
  });

  it('every card call needs a paired browser session: 990209 before, the call after', async () => {
    const r = await start();
    expect((await post(r, cardIssuerPaths.readBaseInfo, {})).body.code).toBe(readerCodes.notPaired);
    expect((await post(r, cardIssuerPaths.switchIdentity, { cardDeviceToken: token })).body.code).toBe(readerCodes.notPaired);
    const { devicePublicKey } = await paired(r);
    expect(devicePublicKey).toMatch(/^04[0-9a-f]{128}$/);
    expect((await post(r, cardIssuerPaths.switchIdentity, { cardDeviceToken: token })).body.code).toBe(0);
    expect((await post(r, cardIssuerPaths.readBaseInfo, {})).body.code).toBe(readerCodes.noCard);
    expect((await post(r, cardIssuerPaths.readBaseInfo, {}, { carddevicetoken: 'another-token-0123456' })).body.code).toBe(readerCodes.notPaired);
  });

  it('the pairing reply names the version of the build the issuer came from, one its own server accepts', async () => {
    const r = await start();
    const reply = await post(r, cardIssuerPaths.addIdentity, { cardDeviceToken: token });
    expect(reply.body.data).toMatchObject({ issuerVersion: shellVersion, readerName: virtualReaderName });
    expect(judgeIssuerVersion(reply.body.data?.issuerVersion)).toEqual({ kind: 'fits', issuerVersion: shellVersion });
    const health = (await (await fetch(`${r.url}/healthz`)).json()) as { version: string };
    expect(health.version).toBe(shellVersion);
  });

  it("thirty-three pairings from a page of an allowed origin do not push the shell's pairing out (issue 25 item 7)", async () => {
    const otherShell = 'http://localhost:6300';
    const r = await start(undefined, `${shellOrigin},${otherShell}`);
    await paired(r);
    expect((await post(r, cardIssuerPaths.switchIdentity, { cardDeviceToken: token })).body.code).toBe(0);
    const attempts: Answer[] = [];
    for (let i = 0; i < 33; i += 1) {
      const other = `attacker-token-${String(i).padStart(10, '0')}`;
      attempts.push(await post(r, cardIssuerPaths.addIdentity, { cardDeviceToken: other }, { carddevicetoken: other }));
    }
    // a second tab of the shell pairs while there is room; then the origin's pairings are all in use
    expect(attempts.filter((a) => a.body.code === 0)).toHaveLength(7);
    const refused = attempts.filter((a) => a.body.code !== 0);
    expect(refused).toHaveLength(26);
    for (const reply of refused) expect(reply.body).toMatchObject({ code: readerCodes.tooManyPairings, data: null });
    expect(refused[0]!.body.msg).toMatch(/Too many browser pages of this site are paired with the card issuer/);
    // the shell goes on, and a reload of its page (the same token) pairs again
    expect((await post(r, cardIssuerPaths.readBaseInfo, {})).body.code).toBe(readerCodes.noCard);
    expect((await post(r, cardIssuerPaths.addIdentity, { cardDeviceToken: token })).body.code).toBe(0);
    expect((await post(r, cardIssuerPaths.switchIdentity, { cardDeviceToken: token })).body.code).toBe(0);
    // another allowed origin has pairings of its own
    const elsewhere = 'other-shell-token-0123456789';
    expect((await post(r, cardIssuerPaths.addIdentity, { cardDeviceToken: elsewhere }, { origin: otherShell })).body.code).toBe(0);
  });

  it('bad input is a clear 400 naming the problem, never a crash', async () => {
    const r = await start();
    await paired(r);
    const cases: [unknown, RegExp][] = [
      ['{not json', /JSON/i],
      [{ cardKind: 12 }, /cardKind/],
      [{ cardKind: '11' }, /cardKind/],
      [{}, /cardKind/],
    ];
    for (const [body, message] of cases) {
      const reply = await post(r, cardIssuerPaths.checkOprtLoginCardCanIssue, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.code).toBe(101);
      expect(reply.body.msg).toMatch(message);
    }
    const huge = await post(r, cardIssuerPaths.issueSuperAdminCard, { fixedNo: '04A1B2C3', image: 'ab'.repeat(20_000) });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe(101);
    const tooLong = await post(r, cardIssuerPaths.issueSuperAdminCard, { fixedNo: '04A1B2C3', image: 'ab'.repeat(257) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.msg).toMatch(/image/);
    expect((await post(r, '/api/GMSystemCard/Nothing', {})).status).toBe(404);
  });
});

describe('the card issuer: the system key and the gateway', () => {
  it('opens only system key data sealed to its own device key; the gateway check fails (990207) without it', async () => {
    const r = await start();
    const { devicePublicKey } = await paired(r);
    expect((await post(r, cardIssuerPaths.setGateway, { gatewayAddr: shellOrigin })).body.code).toBe(readerCodes.noSystemKey);
    const other = sm2.generateKeyPairHex();
    expect((await post(r, cardIssuerPaths.init, { sysKeyData: sysKeyData(other.publicKey) })).body.code).toBe(readerCodes.noSystemKey);
    expect((await post(r, cardIssuerPaths.init, { sysKeyData: sysKeyData(devicePublicKey) })).body.code).toBe(0);
    expect((await post(r, cardIssuerPaths.setGateway, { gatewayAddr: 'https://evil.example' })).body.code).toBe(readerCodes.gatewayUnreachable);
    expect((await post(r, cardIssuerPaths.setGateway, { gatewayAddr: `${shellOrigin}/` })).body).toMatchObject({ code: 0, data: { gatewayAddr: shellOrigin } });
    // the key lives in memory only: nothing on disk holds it
    for (const file of fs.readdirSync(r.dataDir, { recursive: true }) as string[]) {
      const full = path.join(r.dataDir, file);
      if (fs.statSync(full).isFile()) expect(fs.readFileSync(full).includes(systemKey), file).toBe(false);
    }
  });

  it('a restart keeps its device identity and its cards, and forgets the key and the pairings', async () => {
    const first = await start();
    const { devicePublicKey } = await paired(first);
    const card = first.reader.addCard();
    await first.app.close();
    running = [];
    const again = await start(first.dataDir);
    expect((await post(again, cardIssuerPaths.readBaseInfo, {})).body.code).toBe(readerCodes.notPaired);
    expect((await paired(again)).devicePublicKey).toBe(devicePublicKey);
    expect(again.reader.list().map((c) => c.fixedNo)).toEqual([card]);
    expect((await post(again, cardIssuerPaths.setGateway, { gatewayAddr: shellOrigin })).body.code).toBe(readerCodes.noSystemKey);
  });
});

describe('the card issuer: proving its device key to the server (issue 46 item 1)', () => {
  const challenge = 'Q'.repeat(43);

  it("signs the server's challenge with the PC's name, only for a paired browser session", async () => {
    const r = await start();
    expect((await post(r, cardIssuerPaths.signKeyChallenge, { challenge })).body.code).toBe(readerCodes.notPaired);
    const { devicePublicKey } = await paired(r);
    const signed = (await post(r, cardIssuerPaths.signKeyChallenge, { challenge })).body.data as { challenge: string; hostName: string; signature: string };
    expect(signed.challenge).toBe(challenge);
    expect(signed.hostName).toBe(reportedHostName());
    expect(signed.hostName).toMatch(/^[A-Za-z0-9._-]{1,63}$/);
    expect(verifyIssuerChallenge(devicePublicKey, challenge, signed.hostName, signed.signature)).toBe(true);
    // what it signs is the challenge it was given: another one does not verify with this signature
    expect(verifyIssuerChallenge(devicePublicKey, 'R'.repeat(43), signed.hostName, signed.signature)).toBe(false);
    expect((await post(r, cardIssuerPaths.signKeyChallenge, { challenge: 'short' })).status).toBe(400);
  });

  it('a revoked key is replaced by a new pair, kept on disk, and the system key it held is dropped', async () => {
    const r = await start();
    const { devicePublicKey } = await paired(r);
    expect((await post(r, cardIssuerPaths.init, { sysKeyData: sysKeyData(devicePublicKey) })).body.code).toBe(0);
    const renewed = (await post(r, cardIssuerPaths.newDeviceKey, {})).body.data as { deviceId: string; devicePublicKey: string };
    expect(renewed.devicePublicKey).not.toBe(devicePublicKey);
    expect(renewed.deviceId).toBe(issuerDeviceId(renewed.devicePublicKey));
    expect((await paired(r)).devicePublicKey).toBe(renewed.devicePublicKey);
    expect((await post(r, cardIssuerPaths.setGateway, { gatewayAddr: shellOrigin })).body.code).toBe(readerCodes.noSystemKey);
    expect((await post(r, cardIssuerPaths.init, { sysKeyData: sysKeyData(devicePublicKey) })).body.code).toBe(readerCodes.noSystemKey);
    expect((JSON.parse(fs.readFileSync(path.join(r.dataDir, 'device-key.json'), 'utf8')) as { publicKey: string }).publicKey).toBe(renewed.devicePublicKey);
    expect(fs.statSync(path.join(r.dataDir, 'device-key.json')).mode & 0o777).toBe(0o600);
  });
});

describe('the card issuer: reading, issuing and clearing cards', () => {
  it('issues an administrator card onto a blank card, reads it back opened, refuses it as blank, clears it', async () => {
    const r = await start();
    await withKey(r);
    expect((await post(r, cardIssuerPaths.checkOprtLoginCardCanIssue, { cardKind: 11 })).body.code).toBe(readerCodes.noCard);
    const fixedNo = r.reader.addCard();
    r.reader.place(fixedNo);
    expect((await post(r, cardIssuerPaths.checkOprtLoginCardCanIssue, { cardKind: 11 })).body).toMatchObject({ code: 0, data: { fixedNo, canIssue: true } });
    const image = adminImage(fixedNo);
    expect((await post(r, cardIssuerPaths.issueSuperAdminCard, { fixedNo, image })).body.code).toBe(0);
    const read = await post(r, cardIssuerPaths.readOprtLoginCard, {});
    expect(read.body.data).toMatchObject({ fixedNo, cardClass: 'adminLogin', cardKind: 11, customerNo: '10001', issueSeq: 1, oprtNo: 'sysadmin', tenantCode: '1001', image });
    expect((await post(r, cardIssuerPaths.checkOprtLoginCardCanIssue, { cardKind: 11 })).body.code).toBe(readerCodes.cardAlreadyIssued);
    expect((await post(r, cardIssuerPaths.checkOprtLoginCardCanChangePwd, { cardKind: 11, oprtNo: 'sysadmin' })).body.data).toMatchObject({ canChangePwd: true });
    expect((await post(r, cardIssuerPaths.checkOprtLoginCardCanChangePwd, { cardKind: 11, oprtNo: 'other' })).body.code).toBe(readerCodes.wrongCardKind);
    expect((await post(r, cardIssuerPaths.changePwdOprtLoginCard, { fixedNo, image: adminImage(fixedNo, 2) })).body.code).toBe(0);
    expect((await post(r, cardIssuerPaths.readBaseInfo, {})).body.data).toMatchObject({ issueSeq: 2 });
    expect((await post(r, cardIssuerPaths.checkOprtLoginCardCanClear, { cardKind: 11, cardFixedNo: fixedNo })).body.data).toMatchObject({ canClear: true });
    expect((await post(r, cardIssuerPaths.clearOprtLoginCard, { cardKind: 11, cardFixedNo: fixedNo })).body.code).toBe(0);
    expect((await post(r, cardIssuerPaths.readBaseInfo, {})).body.data).toMatchObject({ cardClass: 'blank' });
  });

  it('an interrupted write is reported (990321, 990322), leaves the card as it was, and the retry writes it', async () => {
    const r = await start();
    await withKey(r);
    const fixedNo = r.reader.addCard();
    r.reader.place(fixedNo);
    for (const fault of [readerCodes.writeInterruptedBeforeChange, readerCodes.writeInterruptedWhileCommitting]) {
      r.reader.failNext('write', fault);
      expect((await post(r, cardIssuerPaths.issueSuperAdminCard, { fixedNo, image: adminImage(fixedNo) })).body.code).toBe(fault);
      expect((await post(r, cardIssuerPaths.readBaseInfo, {})).body.data).toMatchObject({ cardClass: 'blank' });
    }
    expect((await post(r, cardIssuerPaths.issueSuperAdminCard, { fixedNo, image: adminImage(fixedNo) })).body.code).toBe(0);
  });

  it('final codes: a foreign card is not blank, a mother card is the wrong kind, another card than the prepared one', async () => {
    const r = await start();
    await withKey(r);
    const foreign = r.reader.addCard(Buffer.from('a transit card of the city'));
    r.reader.place(foreign);
    expect((await post(r, cardIssuerPaths.checkOprtLoginCardCanIssue, { cardKind: 11 })).body.code).toBe(readerCodes.cardNotBlank);
    const mother = r.reader.addCard(makeMotherCard({ customerNo: '10001', customerPwdDigest: sm3Hex('Customer#2026') }));
    r.reader.place(mother);
    expect((await post(r, cardIssuerPaths.checkSystemKeyCardCanIssue, { cardKind: 11 })).body.code).toBe(readerCodes.wrongCardKind);
    const blank = r.reader.addCard();
    r.reader.place(blank);
    expect((await post(r, cardIssuerPaths.issueSuperAdminCard, { fixedNo: foreign, image: adminImage(foreign) })).body.code).toBe(readerCodes.differentCard);
    // an image of the wrong kind for the call is refused before anything is written
    const keyImage = buildSystemKeyCard({ systemKey, fixedNo: blank, customerNo: '10001', issueSeq: 1, recovery: { sealedSystemKey: Buffer.alloc(16), cardSalt: Buffer.alloc(16), motherFixedNo: mother, derivation: 'argon2id' } });
    expect((await post(r, cardIssuerPaths.issueSuperAdminCard, { fixedNo: blank, image: keyImage.toString('hex') })).body.code).toBe(readerCodes.wrongCardKind);
    expect((await post(r, cardIssuerPaths.issueSystemKeyCard, { fixedNo: blank, image: keyImage.toString('hex') })).body.code).toBe(0);
    expect((await post(r, cardIssuerPaths.checkIsSystemKeyCard, { cardKind: 11 })).body.data).toMatchObject({ isSystemKeyCard: true });
    expect((await post(r, cardIssuerPaths.checkSystemKeyCardCanClear, { cardKind: 11, cardFixedNo: blank })).body.code).toBe(0);
  });

  it('a tampered card and a card copied onto another card are refused (990205)', async () => {
    const r = await start();
    await withKey(r);
    const fixedNo = r.reader.addCard(Buffer.from(adminImage('0A0B0C0D'), 'hex'), '0A0B0C0D');
    const copy = r.reader.addCard(Buffer.from(adminImage('0A0B0C0D'), 'hex'), '0A0B0C0E');
    r.reader.place(copy);
    expect((await post(r, cardIssuerPaths.checkOprtLoginCardCanClear, { cardKind: 11, cardFixedNo: copy })).body.code).toBe(readerCodes.keyMismatch);
    const file = path.join(r.reader.folder, 'cards', `${fixedNo}.card`);
    const bytes = fs.readFileSync(file);
    bytes[60] = (bytes[60] ?? 0) ^ 0xff;
    fs.writeFileSync(file, bytes);
    r.reader.place(fixedNo);
    expect((await post(r, cardIssuerPaths.checkOprtLoginCardCanClear, { cardKind: 11, cardFixedNo: fixedNo })).body.code).toBe(readerCodes.keyMismatch);
    expect((await post(r, cardIssuerPaths.readOprtLoginCard, {})).body.data).not.toHaveProperty('oprtNo');
  });

  it('issues an operator login card, and reads a system key card back for recovery', async () => {
    const r = await start();
    await withKey(r);
    const operatorCard = r.reader.addCard();
    r.reader.place(operatorCard);
    const image = buildAdminCard({ systemKey, fixedNo: operatorCard, customerNo: '10001', issueSeq: 1, oprtNo: 'op-7', cardNum: 7, tenantCode: '1002' }).toString('hex');
    expect((await post(r, cardIssuerPaths.issueOprtLoginCard, { fixedNo: operatorCard, image })).body.code).toBe(0);
    expect((await post(r, cardIssuerPaths.readOprtLoginCard, {})).body.data).toMatchObject({ oprtNo: 'op-7', tenantCode: '1002' });
    const keyCard = r.reader.addCard();
    r.reader.place(keyCard);
    const keyImage = buildSystemKeyCard({ systemKey, fixedNo: keyCard, customerNo: '10001', issueSeq: 1, recovery: { sealedSystemKey: Buffer.alloc(16, 1), cardSalt: Buffer.alloc(16, 2), motherFixedNo: 'E0040150', derivation: 'argon2id' } });
    expect((await post(r, cardIssuerPaths.issueSystemKeyCard, { fixedNo: keyCard, image: keyImage.toString('hex') })).body.code).toBe(0);
    expect((await post(r, cardIssuerPaths.recoverySystemKey, { cardKind: 11, cardFixedNo: keyCard })).body.data).toMatchObject({ fixedNo: keyCard, cardClass: 'systemKey', image: keyImage.toString('hex') });
    expect((await post(r, cardIssuerPaths.recoverySystemKey, { cardKind: 11, cardFixedNo: operatorCard })).body.code).toBe(readerCodes.differentCard);
    r.reader.place(operatorCard);
    expect((await post(r, cardIssuerPaths.recoverySystemKey, { cardKind: 11, cardFixedNo: operatorCard })).body.code).toBe(readerCodes.wrongCardKind);
  });

  it('reads the mother card: customer number, system key code and (once initialised) its proof', async () => {
    const r = await start();
    await paired(r);
    const vendorCard = makeMotherCard({ customerNo: '10001', customerPwdDigest: sm3Hex('Customer#2026'), sysKeyCode: Buffer.alloc(16, 0xab) });
    const fixedNo = r.reader.addCard(vendorCard);
    r.reader.place(fixedNo);
    expect((await post(r, cardIssuerPaths.readMasterCard, {})).body.data).toMatchObject({ customerNo: '10001', sysKeyCode: 'ab'.repeat(16), customerPwd: '', initialised: false });
    const { image } = initialiseMotherCard(vendorCard, fixedNo, sm3Hex('Customer#2026'), systemKey);
    expect((await post(r, cardIssuerPaths.writeCard, { fixedNo, image: image.toString('hex'), expect: 'mother' })).body.code).toBe(0);
    const read = await post(r, cardIssuerPaths.readMasterCard, {});
    expect(read.body.data).toMatchObject({ initialised: true, customerPwd: image.subarray(image.length - 32).toString('hex') });
    r.reader.place(r.reader.addCard());
    expect((await post(r, cardIssuerPaths.readMasterCard, {})).body.code).toBe(readerCodes.wrongCardKind);
  });
});

describe('the card issuer: card sign-in relayed to the server, one operation at a time', () => {
  async function gateway(answer: (body: Record<string, unknown>) => unknown, delayMs = 0): Promise<{ origin: string; seen: Record<string, unknown>[] }> {
    const seen: Record<string, unknown>[] = [];
    const app = Fastify();
    app.post(apiPaths.cardLogin, async (request) => {
      seen.push(request.body as Record<string, unknown>);
      if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
      return answer(request.body as Record<string, unknown>);
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    gateways.push(app);
    const address = app.server.address();
    return { origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, seen };
  }

  it("reads the administrator card and answers the server's token; a refusal comes back as the server said it", async () => {
    let refuse = false;
    const server = await gateway(() => (refuse ? { code: 111, msg: 'Wrong account or password', data: null } : { code: 0, msg: 'ok', data: { token: 'T0KEN', tenantCode: '1001' } }));
    const r = await start(undefined, `${shellOrigin},${server.origin}`);
    await withKey(r);
    expect((await post(r, cardIssuerPaths.setGateway, { gatewayAddr: server.origin })).body.code).toBe(0);
    const image = adminImage('0C0C0C0C');
    const fixedNo = r.reader.addCard(Buffer.from(image, 'hex'), '0C0C0C0C');
    r.reader.place(fixedNo);
    const digest = 'a'.repeat(64);
    const reply = await post(r, cardIssuerPaths.login, { cardKind: 11, oprtNo: 'sysadmin', oprtPwd: digest });
    expect(reply.body).toMatchObject({ code: 0, data: { token: 'T0KEN', tenantCode: '1001' } });
    expect(server.seen[0]).toEqual({ cardKind: 11, fixedNo, image, oprtNo: 'sysadmin', oprtPwd: digest });
    refuse = true;
    expect((await post(r, cardIssuerPaths.login, { cardKind: 11 })).body).toEqual({ code: 111, msg: 'Wrong account or password', data: null });
    expect((await post(r, cardIssuerPaths.login, { cardKind: 11, oprtNo: 'someone-else' })).body.code).toBe(readerCodes.wrongCardKind);
  });

  it('a second caller while a card operation runs is told at once that the reader is busy (990351)', async () => {
    const server = await gateway(() => ({ code: 0, msg: 'ok', data: { token: 'T', tenantCode: '1001' } }), 800);
    const r = await start(undefined, `${shellOrigin},${server.origin}`);
    await withKey(r);
    await post(r, cardIssuerPaths.setGateway, { gatewayAddr: server.origin });
    r.reader.place(r.reader.addCard(Buffer.from(adminImage('0D0D0D0D'), 'hex'), '0D0D0D0D'));
    const slow = post(r, cardIssuerPaths.login, { cardKind: 11 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const meanwhile = await post(r, cardIssuerPaths.readBaseInfo, {});
    expect(meanwhile.body.code).toBe(readerCodes.readerBusy);
    expect((await slow).body.code).toBe(0);
    expect((await post(r, cardIssuerPaths.readBaseInfo, {})).body.code).toBe(0);
  });
});

describe('GET /healthz', () => {
  it('answers 200 with the reader state, its kind and the version to a probe on this PC (no Origin)', async () => {
    const r = await start();
    const res = await fetch(`${r.url}/healthz`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; reader: { state: string; kind: string; name: string; card: boolean }; version: string };
    expect(body.status).toBe('ok');
    expect(body.reader).toMatchObject({ state: 'ready', kind: 'virtual', name: virtualReaderName });
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('is refused to a page of an origin that is not allowed, like every other call', async () => {
    const r = await start();
    const res = await fetch(`${r.url}/healthz`, { headers: { origin: 'http://evil.example' } });
    expect(res.status).toBe(403);
  });
});
