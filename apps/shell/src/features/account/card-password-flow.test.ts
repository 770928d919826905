import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiPaths, cardIssuerPaths, codes, readerCodes, shellVersion } from '@campus/contracts';
import { forgetPairing, setIssuerFetch } from '../../lib/cards/card-issuer.ts';
import type { CardProgress, FlowContext } from '../../lib/cards/card-flow.ts';
import { i18n } from '../../lib/i18n.ts';
import { registerNotifier } from '../../lib/request.ts';
import { installFakeApi } from '../../../test/fake-api.ts';
import type { SeenCall } from '../../../test/fake-api.ts';
import { cardPasswordFlow } from './card-password-flow.ts';

type Answer = { code: number; msg?: string; data?: unknown };
let issuerCalls: { path: string; body: unknown }[] = [];

/** The local card issuer: each path answers its queue in turn, then its last answer; others succeed. */
function issuer(answers: Record<string, Answer[]>) {
  issuerCalls = [];
  forgetPairing();
  setIssuerFetch(async (input, init) => {
    const path = new URL(String(input)).pathname;
    issuerCalls.push({ path, body: JSON.parse(String(init?.body ?? '{}')) });
    const queue = answers[path] ?? [{ code: 0, data: path === cardIssuerPaths.addIdentity ? { devicePublicKey: '04ab', issuerVersion: shellVersion } : null }];
    const answer = queue.length > 1 ? queue.shift()! : queue[0]!;
    return new Response(JSON.stringify({ msg: 'ok', data: null, ...answer }));
  });
}

function context() {
  const progress: CardProgress[] = [];
  const waits: number[] = [];
  const ctx: FlowContext = { signal: new AbortController().signal, report: (p) => progress.push(p), sleep: async (ms) => void waits.push(ms) };
  return { ctx, progress, waits };
}

const change = { cardId: 'card-7', oprtNo: 'sysadmin', oldDigest: 'old-digest', newDigest: 'new-digest', sealedNew: 'sealed-new' };
const prepared = { prepareId: 'P9', fixedNo: 'DE000003', image: '4353bb', alreadyWritten: false };
let server: SeenCall[] = [];
const changeBodies = () => server.filter((call) => call.url === apiPaths.changeGmPassword).map((call) => call.body);

beforeEach(async () => {
  registerNotifier({ error: () => {} });
  await i18n.changeLanguage('en-US');
  server = installFakeApi({
    [apiPaths.verifyGmPassword]: () => ({ data: null }),
    [apiPaths.changeGmPassword]: (call) => ({ data: (call.body as { prepareId?: string }).prepareId ? null : prepared }),
  });
});
afterEach(() => sessionStorage.clear());

describe('the card-login password change (spec §4)', () => {
  it('verifies the old password, waits for the card every 3 s, rewrites it with the prepared image and confirms', async () => {
    issuer({ [cardIssuerPaths.checkOprtLoginCardCanChangePwd]: [{ code: readerCodes.noCard }, { code: 0, data: { fixedNo: 'DE000003' } }] });
    const { ctx, waits, progress } = context();
    await expect(cardPasswordFlow(change)(ctx)).resolves.toBe('password changed');
    expect(server.map((call) => call.url)).toEqual([apiPaths.verifyGmPassword, apiPaths.changeGmPassword, apiPaths.changeGmPassword]);
    expect(server[0]?.body).toEqual({ oprtPwd: 'old-digest' });
    expect(changeBodies()).toEqual([
      { id: 'card-7', kindNum: 11, fixedNo: 'DE000003', oprtPwd: 'new-digest', sealedPwd: 'sealed-new', oprtOldPwd: 'old-digest' },
      { prepareId: 'P9', isSuccess: true },
    ]);
    const cardSteps = issuerCalls.filter((call) => call.path === cardIssuerPaths.checkOprtLoginCardCanChangePwd || call.path === cardIssuerPaths.changePwdOprtLoginCard);
    expect(cardSteps).toEqual([
      { path: cardIssuerPaths.checkOprtLoginCardCanChangePwd, body: { cardKind: 11, oprtNo: 'sysadmin' } },
      { path: cardIssuerPaths.checkOprtLoginCardCanChangePwd, body: { cardKind: 11, oprtNo: 'sysadmin' } },
      { path: cardIssuerPaths.changePwdOprtLoginCard, body: { fixedNo: 'DE000003', image: '4353bb' } },
    ]);
    expect(waits).toEqual([3000]);
    expect(progress.some((p) => p.phase === 'waitingForCard')).toBe(true);
  });

  it('a wrong old password stops before the card is touched', async () => {
    issuer({});
    server = installFakeApi({ [apiPaths.verifyGmPassword]: () => ({ envelope: { code: codes.oldPasswordWrong, msg: 'The original password is wrong', data: null } }) });
    await expect(cardPasswordFlow(change)(context().ctx)).rejects.toMatchObject({ code: codes.oldPasswordWrong });
    expect(issuerCalls.some((call) => call.path === cardIssuerPaths.checkOprtLoginCardCanChangePwd)).toBe(false);
  });

  it('a write that fails is confirmed as not done: the old password stays valid', async () => {
    issuer({
      [cardIssuerPaths.checkOprtLoginCardCanChangePwd]: [{ code: 0, data: { fixedNo: 'DE000003' } }],
      [cardIssuerPaths.changePwdOprtLoginCard]: [{ code: readerCodes.differentCard }],
    });
    await expect(cardPasswordFlow(change)(context().ctx)).rejects.toMatchObject({ code: readerCodes.differentCard });
    expect(changeBodies().at(-1)).toEqual({ prepareId: 'P9', isSuccess: false });
  });
});
