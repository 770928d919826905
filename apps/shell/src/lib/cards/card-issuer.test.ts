import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cardIssuerPaths, readerCodes, shellVersion } from '@campus/contracts';
import { forgetPairing, issuerBaseUrl, issuerCall, IssuerError, setIssuerFetch } from './card-issuer.ts';
import { i18n } from '../i18n.ts';
import * as storage from '../storage.ts';

interface Seen {
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

let seen: Seen[] = [];
function answer(...replies: (object | Error)[]) {
  const queue = [...replies];
  setIssuerFetch(async (input, init) => {
    seen.push({ url: String(input), headers: init?.headers as Record<string, string>, body: JSON.parse(String(init?.body)) });
    const next = queue.shift() ?? { code: 0, msg: 'ok', data: {} };
    if (next instanceof Error) throw next;
    return new Response(JSON.stringify(next), { headers: { 'content-type': 'application/json' } });
  });
}
const paired = { code: 0, msg: 'ok', data: { deviceId: 'D1', devicePublicKey: '04ab', readerName: 'virtual', issuerVersion: shellVersion } };
const switched = { code: 0, msg: 'ok', data: { deviceId: 'D1' } };

beforeEach(async () => {
  seen = [];
  forgetPairing();
  await i18n.changeLanguage('en-US');
});
afterEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('the card issuer client', () => {
  it('calls the configured issuer, or the default port on this computer', () => {
    expect(issuerBaseUrl()).toBe('http://127.0.0.1:18085');
    storage.tenantSettings.set({ cardIssuerUrl: 'http://127.0.0.1:19000/' } as never);
    expect(issuerBaseUrl()).toBe('http://127.0.0.1:19000');
  });

  it('pairs this tab session first, then sends its cardDeviceToken with every call', async () => {
    answer(paired, switched, { code: 0, msg: 'ok', data: { fixedNo: 'DE000001' } });
    const token = storage.cardDeviceToken.get();
    expect(token).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    expect(storage.cardDeviceToken.get()).toBe(token);
    await expect(issuerCall(cardIssuerPaths.readMasterCard)).resolves.toEqual({ fixedNo: 'DE000001' });
    expect(seen.map((s) => s.url.replace('http://127.0.0.1:18085', ''))).toEqual([cardIssuerPaths.addIdentity, cardIssuerPaths.switchIdentity, cardIssuerPaths.readMasterCard]);
    expect(seen[0]?.body).toEqual({ cardDeviceToken: token });
    expect(seen.every((s) => s.headers.carddevicetoken === token)).toBe(true);
  });

  it('a reader code fails with the reader’s own message; an issuer that forgot the pairing is paired again once', async () => {
    answer(paired, switched, { code: readerCodes.noCard, msg: 'x', data: null });
    await expect(issuerCall(cardIssuerPaths.readMasterCard)).rejects.toMatchObject({ kind: 'failed', code: readerCodes.noCard, message: 'No card on the reader: place the card on the reader' });
    seen = [];
    answer({ code: readerCodes.notPaired, msg: 'x', data: null }, paired, switched, { code: 0, msg: 'ok', data: { done: true } });
    await expect(issuerCall(cardIssuerPaths.readBaseInfo)).resolves.toEqual({ done: true });
    expect(seen).toHaveLength(4);
  });

  it('a server failure the issuer relays keeps the server’s message', async () => {
    answer(paired, switched, { code: 111, msg: 'Wrong account or password', data: null });
    await expect(issuerCall(cardIssuerPaths.login, { cardKind: 11 })).rejects.toMatchObject({ code: 111, message: 'Wrong account or password' });
  });

  it('an issuer that does not answer is "not installed or configured"', async () => {
    answer(new TypeError('fetch failed'));
    const error = await issuerCall(cardIssuerPaths.readMasterCard).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IssuerError);
    expect(error).toMatchObject({ kind: 'notInstalled', message: 'card reader not installed or configured' });
  });

  it('something else on the issuer\'s port (no envelope) is also "not installed", not a reader failure', async () => {
    setIssuerFetch(async () => new Response('<html>proxy</html>', { status: 502, headers: { 'content-type': 'text/html' } }));
    await expect(issuerCall(cardIssuerPaths.readMasterCard)).rejects.toMatchObject({ kind: 'notInstalled', code: 0 });
  });

  it('reader messages follow the interface language; the pairing is kept between card calls', async () => {
    await i18n.changeLanguage('zh-MO');
    answer(paired, switched, { code: readerCodes.cardNotBlank, msg: 'x', data: null }, { code: 0, msg: 'ok', data: { fixedNo: 'DE000002' } });
    await expect(issuerCall(cardIssuerPaths.checkSystemKeyCardCanIssue, { cardKind: 11 })).rejects.toMatchObject({ message: '此卡含有其他資料：請使用空白卡' });
    await expect(issuerCall(cardIssuerPaths.checkSystemKeyCardCanIssue, { cardKind: 11 })).resolves.toEqual({ fixedNo: 'DE000002' });
    expect(seen.map((s) => s.url.replace('http://127.0.0.1:18085', ''))).toEqual([
      cardIssuerPaths.addIdentity,
      cardIssuerPaths.switchIdentity,
      cardIssuerPaths.checkSystemKeyCardCanIssue,
      cardIssuerPaths.checkSystemKeyCardCanIssue,
    ]);
    expect(seen[2]?.headers.language).toBe('zh-MO');
  });
});
