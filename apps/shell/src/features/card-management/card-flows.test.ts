import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sm2 } from 'sm-crypto-v2';
import { apiPaths, cardIssuerPaths, readerCodes } from '@campus/contracts';
import type { CardProgress, FlowContext } from '../../lib/cards/card-flow.ts';
import { i18n } from '../../lib/i18n.ts';
import { registerNotifier } from '../../lib/request.ts';
import * as storage from '../../lib/storage.ts';
import { installFakeApi } from '../../../test/fake-api.ts';
import type { FakeRoutes, SeenCall } from '../../../test/fake-api.ts';
import { devicePublicKey, fakeIssuer, signedKeyChallenge, useOneRealmTextEncoder } from '../../../test/fake-issuer.ts';
import { issueAdminCardFlow, recycleCardFlow } from './card-flows.ts';
import { adminCards, bodiesOf, tokenOf } from './card-management.test-data.tsx';

function context() {
  const progress: CardProgress[] = [];
  const controller = new AbortController();
  const ctx: FlowContext = {
    signal: controller.signal,
    report: (p) => progress.push(p),
    sleep: async (_ms, signal) => {
      if (signal.aborted) throw signal.reason;
    },
  };
  return { ctx, progress, controller };
}

let seen: SeenCall[] = [];
const serve = (routes: FakeRoutes) => (seen = installFakeApi(routes));

beforeEach(async () => {
  useOneRealmTextEncoder();
  registerNotifier({ error: () => {} });
  storage.masterCardToken.set('master-1', 1800);
  await i18n.changeLanguage('en-US');
});
afterEach(() => sessionStorage.clear());

describe('card management flows', () => {
  it('recycle on an issuer that lost the system key (990207): the key is loaded with the master-card token, then the check again', async () => {
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.checkOprtLoginCardCanClear, { code: readerCodes.noSystemKey }, { code: 0, data: { fixedNo: 'DE000010', canClear: true } });
    serve({
      [apiPaths.adminCardGetRecycleData]: () => ({ data: { prepareId: 'R1', id: 'a1', fixedNo: 'DE000010', cardKind: 11 } }),
      [apiPaths.getSysKeyData]: () => ({ data: { sysKeyData: 'sealed' } }),
      [apiPaths.adminCardRecycle]: () => ({ data: null }),
    });
    const { ctx } = context();
    await expect(recycleCardFlow('adminCards', adminCards[0]!)(ctx)).resolves.toBe('Card DE000010 is recycled: it is blank and can be issued again');
    expect(issuer.cardCalls().map((call) => call.path)).toEqual([
      cardIssuerPaths.checkOprtLoginCardCanClear,
      cardIssuerPaths.init,
      cardIssuerPaths.checkOprtLoginCardCanClear,
      cardIssuerPaths.clearOprtLoginCard,
    ]);
    expect(bodiesOf(seen, apiPaths.getSysKeyData)).toEqual([{ devicePublicKey, ...signedKeyChallenge }]);
    expect(tokenOf(seen.find((call) => call.url === apiPaths.getSysKeyData))).toBe('master-1');
    expect(bodiesOf(seen, apiPaths.adminCardRecycle)).toEqual([{ id: 'a1', prepareId: 'R1', isSuccess: true }]);
  });

  it('a card that already holds the prepared image (a lost confirm) is confirmed without writing', async () => {
    const keys = sm2.generateKeyPairHex();
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.checkOprtLoginCardCanIssue, { code: 0, data: { fixedNo: 'DE000020', canIssue: true } });
    serve({
      [apiPaths.adminCardGetIssueData]: () => ({ data: { prepareId: 'P2', fixedNo: 'DE000020', image: '4353aa', alreadyWritten: true } }),
      [apiPaths.adminCardIssue]: () => ({ data: null }),
    });
    const { ctx, progress } = context();
    await issueAdminCardFlow({ oprtId: 'u2', holder: 'Admin Two (admin2)', password: 'Card#2026a', sealKey: keys.publicKey })(ctx);
    expect(issuer.cardCalls().map((call) => call.path)).toEqual([cardIssuerPaths.checkOprtLoginCardCanIssue]);
    expect(bodiesOf(seen, apiPaths.adminCardIssue)).toEqual([{ prepareId: 'P2', isSuccess: true }]);
    expect(progress.map((p) => p.phase)).toEqual(expect.arrayContaining(['connecting', 'checking', 'preparing', 'confirming']));
  });

  it('a write cancelled while it waits for the card is forgotten on the server (isSuccess false)', async () => {
    const keys = sm2.generateKeyPairHex();
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.checkOprtLoginCardCanIssue, { code: 0, data: { fixedNo: 'DE000020', canIssue: true } });
    issuer.on(cardIssuerPaths.issueOprtLoginCard, { code: readerCodes.noCard });
    serve({
      [apiPaths.adminCardGetIssueData]: () => ({ data: { prepareId: 'P3', fixedNo: 'DE000020', image: '4353aa', alreadyWritten: false } }),
      [apiPaths.adminCardIssue]: () => ({ data: null }),
    });
    const { ctx, controller } = context();
    ctx.sleep = async () => {
      controller.abort(new Error('cancelled'));
      throw controller.signal.reason;
    };
    await expect(issueAdminCardFlow({ oprtId: 'u2', holder: 'admin2', password: 'Card#2026a', sealKey: keys.publicKey })(ctx)).rejects.toThrow('cancelled');
    expect(bodiesOf(seen, apiPaths.adminCardIssue)).toEqual([{ prepareId: 'P3', isSuccess: false }]);
  });
});
