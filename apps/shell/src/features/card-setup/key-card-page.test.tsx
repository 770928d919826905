import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiPaths, cardIssuerPaths, codes } from '@campus/contracts';
import { i18n } from '../../lib/i18n.ts';
import { registerNotifier } from '../../lib/request.ts';
import * as storage from '../../lib/storage.ts';
import { fakeIssuer } from '../../../test/fake-issuer.ts';
import KeyCardPage from './key-card-page.tsx';
import { freshGate, renderCardScreen } from '../../../test/render-card-screen.tsx';

const initialised = { ...freshGate, isInit: true, hasSecret: true, customerNo: '10001' };
const prepared = { prepareId: 'P1', fixedNo: 'DE000002', image: '4353aa', alreadyWritten: false };

beforeEach(async () => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  registerNotifier({ error: () => {} });
  storage.masterCardToken.set('master-1', 1800);
  await i18n.changeLanguage('en-US');
});
afterEach(() => {
  vi.useRealTimers();
  sessionStorage.clear();
});

describe('/swiper-sys-secret (spec §2) and its reader dialog', () => {
  it('warns to keep the card safe; the success closes by itself after 2 s and the set-up goes on', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.checkSystemKeyCardCanIssue, { code: 0, data: { fixedNo: 'DE000002', canIssue: true } });
    const { router } = renderCardScreen('/swiper-sys-secret', <KeyCardPage />, {
      state: initialised,
      elsewhere: ['/create-superuser'],
      routes: {
        [apiPaths.systemKeyCardCheckCanIssue]: () => ({ data: { canIssue: true } }),
        [apiPaths.systemKeyCardAdd]: () => ({ data: prepared }),
        [apiPaths.gmSetIssueSecretCard]: () => ({ data: null }),
      },
    });
    expect(await screen.findByText(/The system key card stores the system security key/)).toBeInTheDocument();
    await user.click(screen.getByText('Issue the system key card', { selector: 'button, button *' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('The system key card is issued')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1500));
    expect(router.state.location.pathname).toBe('/swiper-sys-secret');
    await act(() => vi.advanceTimersByTimeAsync(600));
    await waitFor(() => expect(router.state.location.pathname).toBe('/create-superuser'));
  });

  it('a master-card token the server no longer accepts (401, 221) goes to the mother card swipe at once, token forgotten', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    storage.accessToken.set('session-1');
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.checkSystemKeyCardCanIssue, { code: 0, data: { fixedNo: 'DE000002', canIssue: true } });
    const { router } = renderCardScreen('/swiper-sys-secret', <KeyCardPage />, {
      state: initialised,
      elsewhere: ['/swipe-master-card-gm'],
      routes: {
        [apiPaths.systemKeyCardCheckCanIssue]: () => ({ status: 401, body: { code: codes.masterCardTokenInvalid, msg: 'Swipe the mother card again', data: null } }),
      },
    });
    await user.click(await screen.findByText('Issue the system key card', { selector: 'button, button *' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/swipe-master-card-gm'));
    expect(storage.masterCardToken.get()).toBeNull();
    // not the global sign-out of a 401: a signed-in session on this browser is kept
    expect(storage.accessToken.get()).toBe('session-1');
  });

  it('Cancel closes the dialog while it waits for a card, and stops asking the reader', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.checkSystemKeyCardCanIssue, { code: 990481 });
    renderCardScreen('/swiper-sys-secret', <KeyCardPage />, { state: initialised });
    await user.click(await screen.findByText('Issue the system key card', { selector: 'button, button *' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Place the card on the reader...')).toBeInTheDocument();
    expect(within(dialog).getByRole('status')).toHaveTextContent('Place the card on the reader...');
    await act(() => vi.advanceTimersByTimeAsync(3000));
    await waitFor(() => expect(issuer.cardCalls()).toHaveLength(2));
    await user.click(within(dialog).getByText('Cancel', { selector: 'button, button *' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await act(() => vi.advanceTimersByTimeAsync(9000));
    expect(issuer.cardCalls()).toHaveLength(2);
  });
});
