import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sm2 } from 'sm-crypto-v2';
import { apiPaths, cardIssuerPaths, codes, readerCodes } from '@campus/contracts';
import type { CardProgress, FlowContext } from '../../lib/cards/card-flow.ts';
import { CardFlowError } from '../../lib/cards/card-flow.ts';
import { passwordDigest } from '../../lib/crypto.ts';
import { i18n } from '../../lib/i18n.ts';
import { registerNotifier } from '../../lib/request.ts';
import * as storage from '../../lib/storage.ts';
import { installFakeApi } from '../../../test/fake-api.ts';
import type { FakeRoutes, SeenCall } from '../../../test/fake-api.ts';
import { devicePublicKey, fakeIssuer, signedKeyChallenge, useOneRealmTextEncoder } from '../../../test/fake-issuer.ts';
import { masterCardFlow, superAdminCardFlow, systemInitFlow } from './setup-flows.ts';
import { keyCardFlow } from '../../lib/cards/key-card-flow.ts';

const prepared = { prepareId: 'P1', fixedNo: 'DE000002', image: '4353aa', alreadyWritten: false };

function context() {
  const progress: CardProgress[] = [];
  const waits: number[] = [];
  const controller = new AbortController();
  const ctx: FlowContext = {
    signal: controller.signal,
    report: (p) => progress.push(p),
    sleep: async (ms, signal) => {
      waits.push(ms);
      if (signal.aborted) throw signal.reason;
    },
  };
  return { ctx, progress, waits, controller };
}

let server: SeenCall[] = [];
function serve(routes: FakeRoutes) {
  server = installFakeApi(routes);
}
const bodiesOf = (url: string) => server.filter((call) => call.url === url).map((call) => call.body);
const tokenOf = (call: SeenCall | undefined) => call?.config.headers.get('token');

beforeEach(async () => {
  useOneRealmTextEncoder();
  registerNotifier({ error: () => {} });
  await i18n.changeLanguage('en-US');
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('the system key card (spec §2 /swiper-sys-secret, two-phase)', () => {
  beforeEach(() => storage.masterCardToken.set('master-1', 1800));

  it('checks the blank card on both sides, writes the prepared image and confirms it, with the master-card token', async () => {
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.checkSystemKeyCardCanIssue, { code: 0, data: { fixedNo: 'DE000002', canIssue: true } });
    serve({
      [apiPaths.systemKeyCardCheckCanIssue]: () => ({ data: { canIssue: true } }),
      [apiPaths.systemKeyCardAdd]: () => ({ data: prepared }),
      [apiPaths.gmSetIssueSecretCard]: () => ({ data: null }),
    });
    const { ctx, progress } = context();
    await expect(keyCardFlow()(ctx)).resolves.toBe('The system key card is issued');
    expect(issuer.cardCalls().map((call) => call.path)).toEqual([cardIssuerPaths.checkSystemKeyCardCanIssue, cardIssuerPaths.issueSystemKeyCard]);
    expect(issuer.cardCalls()[1]?.body).toEqual({ fixedNo: 'DE000002', image: '4353aa' });
    expect(server.map((call) => call.url)).toEqual([apiPaths.systemKeyCardCheckCanIssue, apiPaths.systemKeyCardAdd, apiPaths.gmSetIssueSecretCard]);
    expect(server.every((call) => tokenOf(call) === 'master-1')).toBe(true);
    expect(bodiesOf(apiPaths.systemKeyCardAdd)).toEqual([{ fixedNo: 'DE000002' }]);
    expect(bodiesOf(apiPaths.gmSetIssueSecretCard)).toEqual([{ prepareId: 'P1', isSuccess: true }]);
    // the operator always sees what the reader is doing
    expect(progress.map((p) => p.phase)).toEqual(expect.arrayContaining(['connecting', 'checking', 'preparing', 'writing', 'confirming']));
  });

  it('an interrupted write (990321, 990322) writes the same prepared image again; one confirm', async () => {
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.checkSystemKeyCardCanIssue, { code: 0, data: { fixedNo: 'DE000002', canIssue: true } });
    issuer.on(cardIssuerPaths.issueSystemKeyCard, { code: readerCodes.writeInterruptedBeforeChange }, { code: readerCodes.writeInterruptedWhileCommitting }, { code: 0 });
    serve({
      [apiPaths.systemKeyCardCheckCanIssue]: () => ({ data: { canIssue: true } }),
      [apiPaths.systemKeyCardAdd]: () => ({ data: prepared }),
      [apiPaths.gmSetIssueSecretCard]: () => ({ data: null }),
    });
    const { ctx, progress } = context();
    await keyCardFlow()(ctx);
    const writes = issuer.cardCalls().filter((call) => call.path === cardIssuerPaths.issueSystemKeyCard);
    expect(writes.map((call) => call.body)).toEqual([prepared, prepared, prepared].map(({ fixedNo, image }) => ({ fixedNo, image })));
    expect(bodiesOf(apiPaths.systemKeyCardAdd)).toHaveLength(1);
    expect(bodiesOf(apiPaths.gmSetIssueSecretCard)).toEqual([{ prepareId: 'P1', isSuccess: true }]);
    expect(progress.some((p) => p.phase === 'rewriting')).toBe(true);
  });

  it('a write that fails for good is confirmed as not done, and the reader says why', async () => {
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.checkSystemKeyCardCanIssue, { code: 0, data: { fixedNo: 'DE000002', canIssue: true } });
    issuer.on(cardIssuerPaths.issueSystemKeyCard, { code: readerCodes.differentCard });
    serve({
      [apiPaths.systemKeyCardCheckCanIssue]: () => ({ data: { canIssue: true } }),
      [apiPaths.systemKeyCardAdd]: () => ({ data: prepared }),
      [apiPaths.gmSetIssueSecretCard]: () => ({ data: null }),
    });
    const error = await keyCardFlow()(context().ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CardFlowError);
    expect(error).toMatchObject({ code: readerCodes.differentCard, message: 'Another card was placed on the reader than the one being written' });
    expect(bodiesOf(apiPaths.gmSetIssueSecretCard)).toEqual([{ prepareId: 'P1', isSuccess: false }]);
  });

  it('Cancel while waiting for the card to write stops the retries and still forgets the prepared write', async () => {
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.checkSystemKeyCardCanIssue, { code: 0, data: { fixedNo: 'DE000002', canIssue: true } });
    issuer.on(cardIssuerPaths.issueSystemKeyCard, { code: readerCodes.noCard });
    serve({
      [apiPaths.systemKeyCardCheckCanIssue]: () => ({ data: { canIssue: true } }),
      [apiPaths.systemKeyCardAdd]: () => ({ data: prepared }),
      [apiPaths.gmSetIssueSecretCard]: () => ({ data: null }),
    });
    const { ctx, controller, progress } = context();
    ctx.sleep = async (_ms, signal) => {
      controller.abort(new Error('cancelled'));
      throw signal.reason;
    };
    await expect(keyCardFlow()(ctx)).rejects.toThrow('cancelled');
    expect(issuer.cardCalls().filter((call) => call.path === cardIssuerPaths.issueSystemKeyCard)).toHaveLength(1);
    expect(progress.at(-1)?.phase).toBe('waitingForCard');
    expect(bodiesOf(apiPaths.gmSetIssueSecretCard)).toEqual([{ prepareId: 'P1', isSuccess: false }]);
  });

  it('a card the server already knows is refused before anything is prepared; a card still being checked below 990299 is final', async () => {
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.checkSystemKeyCardCanIssue, { code: 0, data: { fixedNo: 'DE000002', canIssue: true } });
    serve({ [apiPaths.systemKeyCardCheckCanIssue]: () => ({ data: { canIssue: false } }) });
    await expect(keyCardFlow()(context().ctx)).rejects.toMatchObject({ message: 'card already exists' });
    expect(bodiesOf(apiPaths.systemKeyCardAdd)).toEqual([]);

    const again = fakeIssuer();
    again.on(cardIssuerPaths.checkSystemKeyCardCanIssue, { code: readerCodes.cardNotBlank });
    const { ctx, waits } = context();
    await expect(keyCardFlow()(ctx)).rejects.toMatchObject({ code: readerCodes.cardNotBlank, message: 'This card holds other data: use a blank card' });
    expect(waits).toEqual([]);
    expect(again.cardCalls()).toHaveLength(1);
  });

  it('an expired master-card token (401, code 221) is forgotten and the flow fails with 221', async () => {
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.checkSystemKeyCardCanIssue, { code: 0, data: { fixedNo: 'DE000002', canIssue: true } });
    installFakeApi({});
    const { http } = await import('../../lib/request.ts');
    http.transport = async () => ({ status: 401, data: { code: codes.masterCardTokenInvalid, msg: 'swipe the mother card again', data: null } });
    storage.accessToken.set('session-1');
    await expect(keyCardFlow()(context().ctx)).rejects.toMatchObject({ code: codes.masterCardTokenInvalid });
    expect(storage.masterCardToken.get()).toBeNull();
    // a signed-in session on the same browser is not touched
    expect(storage.accessToken.get()).toBe('session-1');
  });
});

describe('system initialisation (spec §2 /system-init)', () => {
  const mother = { fixedNo: 'DE000001', image: '435301', cardClass: 'mother', customerNo: '10001', sysKeyCode: 'aa', customerPwd: '', initialised: false };

  it('reads the mother card, prepares with the SM3 digest of the customer password, writes, reads back and confirms', async () => {
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.readMasterCard, { code: 0, data: mother }, { code: 0, data: { ...mother, image: '4353aa', initialised: true } });
    serve({
      [apiPaths.addGmInitData]: () => ({ data: { ...prepared, fixedNo: 'DE000001' } }),
      [apiPaths.gmSetSystemInit]: () => ({ data: null }),
    });
    await expect(systemInitFlow('10001', 'Customer#2026')(context().ctx)).resolves.toBe('The system is initialised: the mother card holds the new system key');
    const digest = await passwordDigest('Customer#2026', 'sm3');
    expect(bodiesOf(apiPaths.addGmInitData)).toEqual([{ customerNo: '10001', customerPwd: digest, fixedNo: 'DE000001', image: '435301' }]);
    expect(issuer.cardCalls().map((call) => call.path)).toEqual([cardIssuerPaths.readMasterCard, cardIssuerPaths.writeCard, cardIssuerPaths.readMasterCard]);
    expect(issuer.cardCalls()[1]?.body).toEqual({ fixedNo: 'DE000001', image: '4353aa', expect: 'mother' });
    expect(bodiesOf(apiPaths.gmSetSystemInit)).toEqual([{ prepareId: 'P1', isSuccess: true, image: '4353aa' }]);
  });

  it('a card that already holds the prepared image is not written again', async () => {
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.readMasterCard, { code: 0, data: { ...mother, image: '4353aa', initialised: true } });
    serve({
      [apiPaths.addGmInitData]: () => ({ data: { ...prepared, alreadyWritten: true } }),
      [apiPaths.gmSetSystemInit]: () => ({ data: null }),
    });
    await systemInitFlow('10001', 'Customer#2026')(context().ctx);
    expect(issuer.cardCalls().map((call) => call.path)).toEqual([cardIssuerPaths.readMasterCard, cardIssuerPaths.readMasterCard]);
    expect(bodiesOf(apiPaths.gmSetSystemInit)).toEqual([{ prepareId: 'P1', isSuccess: true, image: '4353aa' }]);
  });

  it('a wrong customer password (215) fails with the server’s message and writes nothing', async () => {
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.readMasterCard, { code: 0, data: mother });
    serve({ [apiPaths.addGmInitData]: () => ({ envelope: { code: codes.customerPasswordWrong, msg: 'The customer password does not match the card on the reader', data: null } }) });
    await expect(systemInitFlow('10001', 'Wrong#2026')(context().ctx)).rejects.toMatchObject({ code: codes.customerPasswordWrong, message: 'The customer password does not match the card on the reader' });
    expect(issuer.cardCalls().map((call) => call.path)).toEqual([cardIssuerPaths.readMasterCard]);
  });

  it('a failed write is confirmed as not done', async () => {
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.readMasterCard, { code: 0, data: mother });
    issuer.on(cardIssuerPaths.writeCard, { code: readerCodes.differentCard });
    serve({
      [apiPaths.addGmInitData]: () => ({ data: prepared }),
      [apiPaths.gmSetSystemInit]: () => ({ data: null }),
    });
    await expect(systemInitFlow('10001', 'Customer#2026')(context().ctx)).rejects.toMatchObject({ code: readerCodes.differentCard });
    expect(bodiesOf(apiPaths.gmSetSystemInit)).toEqual([{ prepareId: 'P1', isSuccess: false }]);
  });
});

describe('the mother card swipe', () => {
  it('verifies the card, keeps the master-card token with its expiry, and loads the system key into this issuer', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-01T08:00:00Z'));
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.readMasterCard, { code: 0, data: { fixedNo: 'DE000001', image: '4353', sysKeyCode: 'c0de', customerNo: '10001', customerPwd: 'proof' } });
    serve({
      [apiPaths.gmMasterCardVerify]: () => ({ data: { token: 'master-2', expiresIn: 1800 } }),
      [apiPaths.getSysKeyData]: () => ({ data: { sysKeyData: 'sealed' } }),
    });
    const { ctx, progress } = context();
    await expect(masterCardFlow()(ctx)).resolves.toBe('swipe succeeded');
    // the token is for the issuer that read the card: the server lets it trust no other one
    expect(bodiesOf(apiPaths.gmMasterCardVerify)).toEqual([{ sysKeyCode: 'c0de', customerNo: '10001', customerPwd: 'proof', devicePublicKey }]);
    expect(bodiesOf(apiPaths.getSysKeyData)).toEqual([{ devicePublicKey, ...signedKeyChallenge }]);
    expect(tokenOf(server.find((call) => call.url === apiPaths.getSysKeyData))).toBe('master-2');
    expect(issuer.cardCalls().map((call) => [call.path, call.body])).toEqual([
      [cardIssuerPaths.readMasterCard, {}],
      [cardIssuerPaths.init, { sysKeyData: 'sealed' }],
    ]);
    expect(progress.map((p) => p.phase)).toEqual(expect.arrayContaining(['connecting', 'reading', 'verifying', 'loadingKey']));
    expect(storage.masterCardToken.get()).toBe('master-2');
    vi.setSystemTime(new Date('2026-03-01T08:29:59Z'));
    expect(storage.masterCardToken.get()).toBe('master-2');
    // expired: the entry checks ask for the mother card again instead of a call failing later
    vi.setSystemTime(new Date('2026-03-01T08:30:00Z'));
    expect(storage.masterCardToken.get()).toBeNull();
  });

  it('after the set-up the swipe succeeds although the server trusts no new issuer with the key', async () => {
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.readMasterCard, { code: 0, data: { fixedNo: 'DE000001', image: '4353', sysKeyCode: 'c0de', customerNo: '10001', customerPwd: 'proof' } });
    serve({
      [apiPaths.gmMasterCardVerify]: () => ({ data: { token: 'master-3', expiresIn: 900 } }),
      [apiPaths.getSysKeyData]: () => ({ envelope: { code: codes.readerNotTrusted, msg: 'This card reader is not trusted yet', data: null } }),
    });
    await expect(masterCardFlow()(context().ctx)).resolves.toBe('swipe succeeded');
    expect(storage.masterCardToken.get()).toBe('master-3');
    expect(issuer.cardCalls().map((call) => call.path)).toEqual([cardIssuerPaths.readMasterCard]);
  });

  it('a refused mother card shows the server’s message', async () => {
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.readMasterCard, { code: 0, data: { fixedNo: 'DE000001', image: '4353', sysKeyCode: 'c0de', customerNo: '10001', customerPwd: 'proof' } });
    serve({ [apiPaths.gmMasterCardVerify]: () => ({ envelope: { code: codes.masterCardRejected, msg: 'This mother card is not the one of this installation', data: null } }) });
    await expect(masterCardFlow()(context().ctx)).rejects.toMatchObject({ code: codes.masterCardRejected, message: 'This mother card is not the one of this installation' });
    expect(storage.masterCardToken.get()).toBeNull();
  });
});

describe('the super administrator card (spec §2 /create-superuser)', () => {
  it('sends the SM3 digest and the sealed card password with the blank card, then writes and confirms', async () => {
    storage.masterCardToken.set('master-1');
    const keys = sm2.generateKeyPairHex();
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.checkOprtLoginCardCanIssue, { code: 0, data: { fixedNo: 'DE000003', canIssue: true } });
    serve({
      [apiPaths.issueSuperAdmin]: () => ({ data: { ...prepared, fixedNo: 'DE000003' } }),
      [apiPaths.gmSetIssueSuperAdminCard]: () => ({ data: null }),
    });
    await expect(superAdminCardFlow('Card#2026a', keys.publicKey)(context().ctx)).resolves.toBe('The administrator login card is issued');
    const [body] = bodiesOf(apiPaths.issueSuperAdmin) as { fixedNo: string; oprtPwd: string; sealedPwd: string }[];
    expect(body?.fixedNo).toBe('DE000003');
    expect(body?.oprtPwd).toBe(await passwordDigest('Card#2026a', 'sm3'));
    expect(sm2.doDecrypt(body!.sealedPwd, keys.privateKey, 1)).toBe('Card#2026a');
    expect(issuer.cardCalls().map((call) => call.path)).toEqual([cardIssuerPaths.checkOprtLoginCardCanIssue, cardIssuerPaths.issueSuperAdminCard]);
    expect(bodiesOf(apiPaths.gmSetIssueSuperAdminCard)).toEqual([{ prepareId: 'P1', isSuccess: true }]);
  });
});
