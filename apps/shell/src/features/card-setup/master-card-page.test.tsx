import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiPaths, cardIssuerPaths, codes, readerCodes } from '@campus/contracts';
import { passwordDigest } from '../../lib/crypto.ts';
import { i18n } from '../../lib/i18n.ts';
import { registerNotifier } from '../../lib/request.ts';
import * as storage from '../../lib/storage.ts';
import { fakeIssuer, useOneRealmTextEncoder } from '../../../test/fake-issuer.ts';
import MasterCardPage, { swipeRetries } from './master-card-page.tsx';
import { freshGate, renderCardScreen } from '../../../test/render-card-screen.tsx';

const initialised = { ...freshGate, isInit: true, hasSecret: true, customerNo: '10001' };
const motherRead = { code: 0, data: { fixedNo: 'DE000001', image: '4353', sysKeyCode: 'c0de', customerNo: '10001', customerPwd: 'proof' } };
const button = (name: string) => screen.getByText(name, { selector: 'button, button *' }).closest('button')!;

beforeEach(async () => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  registerNotifier({ error: () => {} });
  await i18n.changeLanguage('en-US');
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('which failed swipes are tried again (spec §4)', () => {
  it('a failed read or a call that did not get through: yes; a refusal of the server: no', () => {
    expect(swipeRetries(readerCodes.noCard, false)).toBe(true);
    expect(swipeRetries(readerCodes.keyMismatch, false)).toBe(true);
    expect(swipeRetries(0, true)).toBe(true);
    expect(swipeRetries(null, false)).toBe(true);
    expect(swipeRetries(codes.masterCardRejected, false)).toBe(false);
  });
});

describe('/swipe-master-card-gm (spec §4 "Swipe master card")', () => {
  it('idle, then a failed read tries again every 3 s until Cancel stops it', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.readMasterCard, { code: readerCodes.keyMismatch });
    renderCardScreen('/swipe-master-card-gm', <MasterCardPage />, { state: initialised });
    expect(await screen.findByText('Waiting to start.')).toBeInTheDocument();
    await user.click(button('Start swiping'));
    expect(await screen.findByText('This card belongs to another installation, or it was changed or copied')).toBeInTheDocument();
    const reads = () => issuer.cardCalls().filter((call) => call.path === cardIssuerPaths.readMasterCard).length;
    expect(reads()).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(3000));
    await waitFor(() => expect(reads()).toBe(2));
    await user.click(button('Cancel'));
    expect(await screen.findByText('Waiting to start.')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(9000));
    expect(reads()).toBe(2);
    expect(button('Start swiping')).toBeEnabled();
  });

  it('a mother card the server refuses shows its message and is not tried again', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.readMasterCard, motherRead);
    const { seen } = renderCardScreen('/swipe-master-card-gm', <MasterCardPage />, {
      state: initialised,
      routes: { [apiPaths.gmMasterCardVerify]: () => ({ envelope: { code: codes.masterCardRejected, msg: 'Not the mother card of this installation', data: null } }) },
    });
    await user.click(await screen.findByText('Start swiping', { selector: 'button, button *' }));
    expect(await screen.findByText('Not the mother card of this installation')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(6000));
    expect(seen.filter((call) => call.url === apiPaths.gmMasterCardVerify)).toHaveLength(1);
    expect(button('Start swiping')).toBeEnabled();
  });

  it('a verified swipe keeps the token, loads the system key into the issuer and opens the next set-up step', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.readMasterCard, motherRead);
    const { router } = renderCardScreen('/swipe-master-card-gm', <MasterCardPage />, {
      state: initialised,
      elsewhere: ['/swiper-sys-secret'],
      routes: {
        [apiPaths.gmMasterCardVerify]: () => ({ data: { token: 'master-9', expiresIn: 1800 } }),
        [apiPaths.getSysKeyData]: () => ({ data: { sysKeyData: 'sealed' } }),
      },
    });
    await user.click(await screen.findByText('Start swiping', { selector: 'button, button *' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/swiper-sys-secret'));
    expect(storage.masterCardToken.get()).toBe('master-9');
    expect(issuer.cardCalls().map((call) => call.path)).toEqual([cardIssuerPaths.readMasterCard, cardIssuerPaths.init]);
  });

  it('the card issuer not running: says so, how to start it, and keeps trying', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.addIdentity, new TypeError('fetch failed'));
    const { seen } = renderCardScreen('/swipe-master-card-gm', <MasterCardPage />, { state: initialised });
    await user.click(await screen.findByText('Start swiping', { selector: 'button, button *' }));
    expect(await screen.findByText('card reader not installed or configured')).toBeInTheDocument();
    expect(screen.getByText(/download "Card issuer" for its system from the Tools page/)).toBeInTheDocument();
    const settingsReads = () => seen.filter((call) => call.url === apiPaths.tenantSettings).length;
    const before = settingsReads();
    await act(() => vi.advanceTimersByTimeAsync(3000));
    await waitFor(() => expect(issuer.calls.length).toBe(2));
    // each try after the issuer did not answer asks the server where the issuer is now
    expect(settingsReads()).toBe(before + 1);
  });

  // issue 46 item 5: after the set-up the mother card (or a copy of its bytes) is no session without the customer password
  it('after the set-up it asks for the customer password and sends only its SM3 digest with the swipe', async () => {
    useOneRealmTextEncoder();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.readMasterCard, motherRead);
    let answer: { code: number; msg: string } = { code: codes.customerPasswordWrong, msg: 'The customer password is wrong' };
    const { seen, router } = renderCardScreen('/swipe-master-card-gm', <MasterCardPage />, {
      state: { ...initialised, isIssueSecretCard: true, isIssueSuperAdminCard: true },
      elsewhere: ['/systemadmin-logincard'],
      routes: {
        [apiPaths.gmMasterCardVerify]: () => (answer.code === 0 ? { data: { token: 'master-9', expiresIn: 900 } } : { envelope: { ...answer, data: null } }),
        [apiPaths.getSysKeyData]: () => ({ envelope: { code: codes.readerNotTrusted, msg: 'not trusted', data: null } }),
      },
    });
    expect(await screen.findByText('After the set-up the mother card alone is not enough: type the customer password, then start swiping.')).toBeInTheDocument();
    await user.click(button('Start swiping'));
    expect(await screen.findByText('Please enter the customer password')).toBeInTheDocument();
    expect(issuer.cardCalls()).toHaveLength(0);

    const field = screen.getByLabelText('Customer password');
    await user.type(field, 'Guess#2026');
    await user.click(button('Start swiping'));
    expect(await screen.findByText('The customer password is wrong')).toBeInTheDocument();
    // a refusal of the password empties the field and is not tried again by itself
    await waitFor(() => expect(field).toHaveValue(''));
    await act(() => vi.advanceTimersByTimeAsync(6000));
    const verifies = () => seen.filter((call) => call.url === apiPaths.gmMasterCardVerify).map((call) => call.body as Record<string, unknown>);
    expect(verifies()).toHaveLength(1);
    expect(verifies()[0]).toMatchObject({ customerPwd: 'proof', customerPwdDigest: await passwordDigest('Guess#2026', 'sm3') });
    expect(JSON.stringify(verifies()[0])).not.toContain('Guess#2026');

    answer = { code: 0, msg: '' };
    await user.type(field, 'Customer#2026');
    await user.click(button('Start swiping'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/systemadmin-logincard'));
    expect(storage.masterCardToken.get()).toBe('master-9');
    expect(verifies()[1]).toMatchObject({ customerPwdDigest: await passwordDigest('Customer#2026', 'sm3') });
  });

  it('during the set-up the swipe asks for no password', async () => {
    renderCardScreen('/swipe-master-card-gm', <MasterCardPage />, { state: initialised });
    expect(await screen.findByText('Start swiping', { selector: 'button, button *' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Customer password')).toBeNull();
  });
});
