// The card sign-in screen lives in features/auth (card-login-form.tsx); its render test is here only because
// this change could not touch features/auth. Move it next to the form when that feature is next edited.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiPaths, cardIssuerPaths, readerCodes } from '@campus/contracts';
import type { CardLoginSetting } from '@campus/contracts';
import { passwordDigest } from '../../lib/crypto.ts';
import { i18n } from '../../lib/i18n.ts';
import { registerNotifier } from '../../lib/request.ts';
import SwipeLoginPage from './swipe-login-page.tsx';
import { devicePublicKey, fakeIssuer, signedKeyChallenge, useOneRealmTextEncoder } from '../../../test/fake-issuer.ts';
import { freshGate, renderCardScreen } from '../../../test/render-card-screen.tsx';

const setUp = { ...freshGate, isInit: true, hasSecret: true, isIssueSecretCard: true, isIssueSuperAdminCard: true, customerNo: '10001' };
const cardAlone: CardLoginSetting = { cardLogin: true, cardKind: 11, cardLoginMode: 'card-alone' };
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

describe('/swipe-login (spec §2 card login screens, §4 gateway check)', () => {
  it('has the heading in both languages, the prompt, and asks for the login name and password first', async () => {
    const user = userEvent.setup();
    const issuer = fakeIssuer();
    renderCardScreen('/swipe-login', <SwipeLoginPage />, { state: setUp });
    expect(await screen.findByRole('heading', { name: 'Card swipe login' })).toBeInTheDocument();
    expect(screen.getByText('刷卡登录', { selector: 'p' })).toBeInTheDocument();
    expect(screen.getByText('Place your administrator login card on the card reader.')).toBeInTheDocument();
    await user.click(button('Login'));
    // each field's message comes in with its own motion: on a busy machine the second one a moment later
    expect(await screen.findByText('login name cannot be empty')).toBeInTheDocument();
    expect(await screen.findByText('password cannot be empty')).toBeInTheDocument();
    expect(issuer.calls).toEqual([]);
  });

  it('an issuer without the system key gets it (990207), then the card is read with the login name and the SM3 digest', async () => {
    const user = userEvent.setup();
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.setGateway, { code: readerCodes.noSystemKey }, { code: 0 });
    issuer.on(cardIssuerPaths.login, { code: 111, msg: 'Wrong account or password' });
    const { seen } = renderCardScreen('/swipe-login', <SwipeLoginPage />, {
      state: setUp,
      routes: {
        [apiPaths.tenantSearch]: () => ({ data: [{ code: '1001', name: 'Demo Campus' }] }),
        [apiPaths.getSysKeyData]: () => ({ data: { sysKeyData: 'sealed' } }),
      },
    });
    await user.type(await screen.findByLabelText('Login name'), 'sysadmin');
    await user.type(screen.getByLabelText('Password'), 'Card#2026a');
    await user.click(button('Login'));
    expect(await screen.findByText('Wrong account or password')).toBeInTheDocument();
    expect(issuer.cardCalls().map((call) => call.path)).toEqual([cardIssuerPaths.setGateway, cardIssuerPaths.init, cardIssuerPaths.setGateway, cardIssuerPaths.login]);
    expect(issuer.cardCalls()[0]?.body).toEqual({ gatewayAddr: window.location.origin });
    expect(issuer.cardCalls()[1]?.body).toEqual({ sysKeyData: 'sealed' });
    expect(issuer.cardCalls()[3]?.body).toEqual({ cardKind: 11, oprtNo: 'sysadmin', oprtPwd: await passwordDigest('Card#2026a', 'sm3'), tenantCode: '1001' });
    expect(seen.filter((call) => call.url === apiPaths.getSysKeyData).map((call) => call.body)).toEqual([{ devicePublicKey, ...signedKeyChallenge }]);
    // the password is typed again after a failure
    await waitFor(() => expect(screen.getByLabelText('Password')).toHaveValue(''));
  });

  it('a refused sign-in\'s alert goes when the form is sent again and the fields say what is missing', async () => {
    const user = userEvent.setup();
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.login, { code: 111, msg: 'Wrong account or password' });
    renderCardScreen('/swipe-login', <SwipeLoginPage />, { state: setUp, routes: { [apiPaths.tenantSearch]: () => ({ data: [] }) } });
    await user.type(await screen.findByLabelText('Login name'), 'sysadmin');
    await user.type(screen.getByLabelText('Password'), 'Card#2026a');
    await user.click(button('Login'));
    expect(await screen.findByText('Wrong account or password')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Password')).toHaveValue(''));
    await user.clear(screen.getByLabelText('Login name'));
    await user.click(button('Login'));
    expect(await screen.findByText('login name cannot be empty')).toBeInTheDocument();
    expect(await screen.findByText('password cannot be empty')).toBeInTheDocument();
    expect(screen.queryByText('Wrong account or password')).not.toBeInTheDocument();
  });

  it('the card issuer not running: "card reader not installed or configured" and how to start it', async () => {
    const user = userEvent.setup();
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.addIdentity, new TypeError('fetch failed'));
    renderCardScreen('/swipe-login', <SwipeLoginPage />, { state: setUp, routes: { [apiPaths.cardLoginSetting]: () => ({ data: cardAlone }) } });
    await user.click(await screen.findByText('Card only'));
    await user.click(button('Swipe the card and sign in'));
    expect(await screen.findByText('card reader not installed or configured')).toBeInTheDocument();
    expect(screen.getByText(/download "Card issuer" for its system from the Tools page/)).toBeInTheDocument();
    expect(screen.queryByText(/npm run/)).not.toBeInTheDocument();
  });

  it('asks for the card password where the tenant needs it: no "card only" (issue 46 item 8)', async () => {
    fakeIssuer();
    const { seen } = renderCardScreen('/swipe-login', <SwipeLoginPage />, { state: setUp, routes: { [apiPaths.cardLoginSetting]: () => ({ data: { ...cardAlone, cardLoginMode: 'card-and-password' } }) } });
    expect(await screen.findByLabelText('Login name')).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
    await waitFor(() => expect(seen.some((call) => call.url.startsWith(apiPaths.cardLoginSetting))).toBe(true));
    expect(screen.queryByText('Card only')).not.toBeInTheDocument();
    expect(screen.queryByText('Swipe the card and sign in')).not.toBeInTheDocument();
  });
});
