import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiPaths, cardIssuerPaths, codes, shellVersion } from '@campus/contracts';
import { passwordDigest } from '../../lib/crypto.ts';
import { i18n } from '../../lib/i18n.ts';
import { registerNotifier } from '../../lib/request.ts';
import { devicePublicKey, fakeIssuer, signedKeyChallenge, useOneRealmTextEncoder } from '../../../test/fake-issuer.ts';
import { freshGate, renderCardScreen } from '../../../test/render-card-screen.tsx';
import ReSwipePage from './re-swipe-page.tsx';

const installed = { ...freshGate, isInit: true, hasSecret: true, isIssueSecretCard: true, isIssueSuperAdminCard: true, customerNo: '10001' };
const keyCardRead = { code: 0, data: { fixedNo: 'DE000002', image: '435301020b' } };
const button = (name: string) => screen.getByText(name, { selector: 'button, button *' }).closest('button')!;

beforeEach(async () => {
  useOneRealmTextEncoder();
  registerNotifier({ error: () => {} });
  await i18n.changeLanguage('en-US');
});
afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('/re-swipe-sys-sceret: the system key card trusts this card issuer', () => {
  it('asks for the customer password first: the card alone is not enough', async () => {
    const user = userEvent.setup();
    const issuer = fakeIssuer();
    renderCardScreen('/re-swipe-sys-sceret', <ReSwipePage />, { state: installed });
    await user.click(await screen.findByText('Read the system key card', { selector: 'button, button *' }));
    expect(await screen.findByText('Please enter the customer password')).toBeInTheDocument();
    expect(issuer.cardCalls()).toEqual([]);
  });

  it('sends the card with the SM3 digest of the customer password, then loads the key into the issuer', async () => {
    const user = userEvent.setup();
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.readBaseInfo, keyCardRead);
    const { seen } = renderCardScreen('/re-swipe-sys-sceret', <ReSwipePage />, {
      state: installed,
      elsewhere: ['/swipe-login', '/key-card-swipe-login'],
      routes: { [apiPaths.getGmSysKeyData]: () => ({ data: { sysKeyData: 'sealed' } }) },
    });
    await user.type(await screen.findByLabelText('Customer password'), 'Customer#2026{Enter}');
    expect(await screen.findByText('The card reader holds the system key again')).toBeInTheDocument();
    const bodies = seen.filter((call) => call.url === apiPaths.getGmSysKeyData).map((call) => call.body);
    expect(bodies).toEqual([{ devicePublicKey, ...signedKeyChallenge, fixedNo: 'DE000002', image: '435301020b', customerPwd: await passwordDigest('Customer#2026', 'sm3') }]);
    expect(issuer.cardCalls().map((call) => [call.path, call.body])).toEqual([
      [cardIssuerPaths.readBaseInfo, {}],
      [cardIssuerPaths.init, { sysKeyData: 'sealed' }],
    ]);
  });

  it('a wrong customer password shows the server’s message and loads nothing', async () => {
    const user = userEvent.setup();
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.readBaseInfo, keyCardRead);
    renderCardScreen('/re-swipe-sys-sceret', <ReSwipePage />, {
      state: installed,
      routes: { [apiPaths.getGmSysKeyData]: () => ({ envelope: { code: codes.customerPasswordWrong, msg: 'The customer password does not match the card on the reader', data: { remainingAttempts: 4 } } }) },
    });
    await user.type(await screen.findByLabelText('Customer password'), 'Wrong#2026{Enter}');
    expect(await screen.findByText('The customer password does not match the card on the reader')).toBeInTheDocument();
    await waitFor(() => expect(issuer.cardCalls().map((call) => call.path)).toEqual([cardIssuerPaths.readBaseInfo]));
    expect(button('Read the system key card')).toBeInTheDocument();
  });
  it('a revoked card issuer makes a new device key, and the card trusts that one: the old key stays refused', async () => {
    const user = userEvent.setup();
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.readBaseInfo, keyCardRead);
    const renewedKey = '04' + 'ef'.repeat(64);
    issuer.on(cardIssuerPaths.newDeviceKey, { code: 0, data: { deviceId: 'D2', devicePublicKey: renewedKey } });
    const revoked = { envelope: { code: codes.issuerTrustRevoked, msg: 'A system administrator revoked this card reader', data: null } };
    const { seen } = renderCardScreen('/re-swipe-sys-sceret', <ReSwipePage />, {
      state: installed,
      routes: {
        [apiPaths.getGmSysKeyData]: (call) => ((call.body as { devicePublicKey: string }).devicePublicKey === devicePublicKey ? revoked : { data: { sysKeyData: 'sealed' } }),
      },
    });
    // the issuer answers its new key from the pairing after NewDeviceKey
    issuer.on(cardIssuerPaths.addIdentity, { code: 0, data: { deviceId: 'D1', devicePublicKey, readerName: 'virtual', issuerVersion: shellVersion } }, { code: 0, data: { deviceId: 'D2', devicePublicKey: renewedKey, readerName: 'virtual', issuerVersion: shellVersion } });
    await user.type(await screen.findByLabelText('Customer password'), 'Customer#2026{Enter}');
    expect(await screen.findByText('The card reader holds the system key again')).toBeInTheDocument();
    const sentKeys = seen.filter((call) => call.url === apiPaths.getGmSysKeyData).map((call) => (call.body as { devicePublicKey: string }).devicePublicKey);
    expect(sentKeys).toEqual([devicePublicKey, renewedKey]);
    expect(seen.filter((call) => call.url === apiPaths.getSysKeyChallenge).map((call) => call.body)).toEqual([{ devicePublicKey }, { devicePublicKey: renewedKey }]);
    expect(issuer.cardCalls().map((call) => call.path)).toEqual([cardIssuerPaths.readBaseInfo, cardIssuerPaths.newDeviceKey, cardIssuerPaths.init]);
  });
});
