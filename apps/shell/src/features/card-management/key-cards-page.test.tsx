import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiPaths, cardIssuerPaths, codes } from '@campus/contracts';
import { passwordDigest } from '../../lib/crypto.ts';
import { i18n } from '../../lib/i18n.ts';
import { registerNotifier } from '../../lib/request.ts';
import * as storage from '../../lib/storage.ts';
import { fakeIssuer, useOneRealmTextEncoder } from '../../../test/fake-issuer.ts';
import { bodiesOf, button, dialogTitled, doneGate, refusedToken, renderCardTable, rowCheckbox, tokenOf, toolbar } from './card-management.test-data.tsx';

beforeEach(async () => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  useOneRealmTextEncoder();
  registerNotifier({ error: () => {} });
  storage.masterCardToken.set('master-1', 1800);
  await i18n.changeLanguage('en-US');
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

const keyCardInUse = { code: 0, data: { fixedNo: 'DE000002', isSystemKeyCard: true } };
const keyCardRead = { code: 0, data: { fixedNo: 'DE000002', cardClass: 'systemKey', image: '435301020b', cardKind: 11, customerNo: '10001', kid: '', issueSeq: 1 } };

describe('/system-keycard: the system key card table', () => {
  it("shows when each card was issued on the signed-in user's clock, the column naming the zone", async () => {
    storage.masterCardToken.set(null);
    storage.accessToken.set('session-1');
    storage.utcDiff.set(480);
    renderCardTable('keyCards');
    expect(await screen.findByText('DE000003')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: /^Issued \(UTC\+8\)/ })).toBeInTheDocument();
    // created 08:00 UTC: 4:00 PM at UTC+8
    expect(screen.getAllByText('Jan 5, 2026, 4:00:00 PM')).toHaveLength(2);
  });

  it('one card at a time: a state action sends {id} of the selected card', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { seen } = renderCardTable('keyCards', { [apiPaths.keyCardFreeze]: () => ({ data: null }) });
    expect(await screen.findByText('DE000003')).toBeInTheDocument();
    expect(screen.queryByText('Operator')).not.toBeInTheDocument();
    expect(rowCheckbox('DE000002').type).toBe('radio');
    await act(() => fireEvent.click(rowCheckbox('DE000002')));
    await user.click(button('Freeze', toolbar()));
    const confirm = await dialogTitled('Freeze');
    // a key card signs nobody in: the text says what freezing it stops (issue 25, item 11)
    expect(within(confirm).getByText('Freeze system key card DE000002? Until it is unfrozen it cannot recover the system key or make a card reader trusted.')).toBeInTheDocument();
    await user.click(button('Freeze', confirm));
    expect(await screen.findByText('Frozen: DE000002')).toBeInTheDocument();
    expect(bodiesOf(seen, apiPaths.keyCardFreeze)).toEqual([{ id: 'k1' }]);
    // a key card has no holder to sign out
    expect(screen.queryByText('Their holders are signed out at once.')).not.toBeInTheDocument();
  });

  it('a new key card with a signed-in administrator’s access token: issuer check, CheckCardCanIssue, Add, write, SetIssueSecretCard', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    storage.masterCardToken.set(null);
    storage.accessToken.set('session-1');
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.checkSystemKeyCardCanIssue, { code: 0, data: { fixedNo: 'DE000030', canIssue: true } });
    const { seen } = renderCardTable('keyCards', {
      [apiPaths.systemKeyCardCheckCanIssue]: () => ({ data: { canIssue: true } }),
      [apiPaths.systemKeyCardAdd]: () => ({ data: { prepareId: 'K1', fixedNo: 'DE000030', image: '4353cc', alreadyWritten: false } }),
      [apiPaths.gmSetIssueSecretCard]: () => ({ data: null }),
    });
    await screen.findByText('DE000003');
    await user.click(button('Issue a new key card', toolbar()));
    const reader = await dialogTitled('Issue the system key card');
    expect(await within(reader).findByText('The system key card is issued')).toBeInTheDocument();
    expect(bodiesOf(seen, apiPaths.systemKeyCardAdd)).toEqual([{ fixedNo: 'DE000030' }]);
    expect(bodiesOf(seen, apiPaths.gmSetIssueSecretCard)).toEqual([{ prepareId: 'K1', isSuccess: true }]);
    expect(seen.filter((call) => call.url.startsWith('/qy/') || call.url.includes('GMAccount/SetIssue')).every((call) => tokenOf(call) === 'session-1')).toBe(true);
  });

  it('a key card already in use (239): the server’s message, the prepare never written', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.checkSystemKeyCardCanIssue, { code: 0, data: { fixedNo: 'DE000030', canIssue: true } });
    renderCardTable('keyCards', {
      [apiPaths.systemKeyCardCheckCanIssue]: () => ({ data: { canIssue: true } }),
      [apiPaths.systemKeyCardAdd]: () => ({ envelope: { code: codes.cardAlreadyExists, msg: 'Card already exists: the system key card DE000002 is in use', data: null } }),
    });
    await screen.findByText('DE000003');
    await user.click(button('Issue a new key card', toolbar()));
    const reader = await dialogTitled('Issue the system key card');
    expect(await within(reader).findByText('Card already exists: the system key card DE000002 is in use')).toBeInTheDocument();
    expect(issuer.cardCalls().map((call) => call.path)).toEqual([cardIssuerPaths.checkSystemKeyCardCanIssue]);
  });

  it('recycle a key card: ClearSystemKeyCard on the reader, then Recycle', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const issuer = fakeIssuer();
    const { seen } = renderCardTable('keyCards', {
      [apiPaths.keyCardGetRecycleData]: () => ({ data: { prepareId: 'R2', id: 'k1', fixedNo: 'DE000002', cardKind: 11 } }),
      [apiPaths.keyCardRecycle]: () => ({ data: null }),
    });
    await screen.findByText('DE000003');
    await act(() => fireEvent.click(rowCheckbox('DE000002')));
    await user.click(button('Recycle', toolbar()));
    // asked first (WCAG 3.3.4), in the words of a key card
    const confirm = await dialogTitled('Recycle');
    expect(within(confirm).getByText(/^Recycle system key card DE000002\? It is blanked on the card reader and no longer holds the system key/)).toBeInTheDocument();
    await user.click(button('Recycle', confirm));
    expect(await within(await dialogTitled('Recycle card DE000002')).findByText(/Card DE000002 is recycled/)).toBeInTheDocument();
    expect(issuer.cardCalls().map((call) => call.path)).toEqual([cardIssuerPaths.checkSystemKeyCardCanClear, cardIssuerPaths.clearSystemKeyCard]);
    expect(bodiesOf(seen, apiPaths.keyCardRecycle)).toEqual([{ id: 'k1', prepareId: 'R2', isSuccess: true }]);
  });

  it('neither token good (401, code 221): to the key-card mother card swipe, which comes back here', async () => {
    const { router } = renderCardTable('keyCards', { [apiPaths.keyCardSearch]: refusedToken });
    await waitFor(() => expect(router.state.location.pathname).toBe('/key-card-swipe-master-card-gm'));
    expect(storage.masterCardToken.get()).toBeNull();
  });
});

describe('/system-keycard: the trusted card readers below the key cards (issue 46 item 1)', () => {
  const issuerRow = (deviceId: string, hostName: string, state: 'trusted' | 'expired' | 'revoked') => ({
    deviceId,
    hostName,
    trustedBy: 'key-card:DE000002',
    clientIp: '10.0.0.7',
    firstTrustedAt: Date.UTC(2026, 0, 5, 8),
    trustedAt: Date.UTC(2026, 0, 5, 8),
    expiresAt: Date.UTC(2026, 0, 5, 18),
    lastFetchAt: Date.UTC(2026, 0, 5, 9),
    lastFetchIp: '10.0.0.7',
    state,
    revokedAt: state === 'revoked' ? Date.UTC(2026, 0, 5, 10) : null,
    revokedBy: state === 'revoked' ? 'sysadmin' : null,
  });

  it('lists each operator PC with its state, and revokes one after a confirmation', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    let rows = [issuerRow('00112233445566AA', 'FRONT-DESK-1', 'trusted'), issuerRow('00112233445566BB', 'OLD-PC', 'revoked')];
    const { seen } = renderCardTable('keyCards', {
      [apiPaths.trustedIssuerList]: () => ({ data: rows }),
      [apiPaths.trustedIssuerRevoke]: () => {
        rows = [{ ...rows[0]!, state: 'revoked', revokedBy: 'sysadmin', revokedAt: Date.UTC(2026, 0, 5, 11) }, rows[1]!];
        return { data: null };
      },
    });
    expect(await screen.findByRole('heading', { name: 'Trusted card readers (operator PCs)' })).toBeInTheDocument();
    expect(await screen.findByText('FRONT-DESK-1')).toBeInTheDocument();
    expect(screen.getByText('Trusted')).toBeInTheDocument();
    expect(screen.getByText(/^Revoked by sysadmin, Jan 5, 2026, \d+:\d\d:\d\d [AP]M$/)).toBeInTheDocument();
    expect(screen.getAllByText('System key card DE000002')).toHaveLength(2);
    // a revoked one has nothing left to revoke
    expect(screen.getAllByText('Revoke', { selector: 'button, button *' })).toHaveLength(1);
    await user.click(button('Revoke'));
    const confirm = await dialogTitled('Revoke');
    expect(within(confirm).getByText(/^Revoke the card reader on FRONT-DESK-1 \(device 00112233445566AA\)\? It gets no system key again/)).toBeInTheDocument();
    await user.click(button('Revoke', confirm));
    expect(await screen.findByText('The card reader on FRONT-DESK-1 is revoked.')).toBeInTheDocument();
    expect(bodiesOf(seen, apiPaths.trustedIssuerRevoke)).toEqual([{ deviceId: '00112233445566AA' }]);
    await waitFor(() => expect(screen.queryAllByText('Revoke', { selector: 'button, button *' })).toHaveLength(0));
    expect(tokenOf(seen.find((call) => call.url === apiPaths.trustedIssuerRevoke))).toBe('master-1');
  });

  it('a refused revoke shows the server’s message', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderCardTable('keyCards', {
      [apiPaths.trustedIssuerList]: () => ({ data: [issuerRow('00112233445566AA', 'FRONT-DESK-1', 'trusted')] }),
      [apiPaths.trustedIssuerRevoke]: () => ({ envelope: { code: codes.trustedIssuerUnknown, msg: 'No trusted card reader has the device id 00112233445566AA', data: null } }),
    });
    await screen.findByText('FRONT-DESK-1');
    await user.click(button('Revoke'));
    await user.click(button('Revoke', await dialogTitled('Revoke')));
    expect(await screen.findByText('No trusted card reader has the device id 00112233445566AA')).toBeInTheDocument();
  });
});

describe('recovering the system key with the key card (docs/cards.md "Recovery")', () => {
  it('a key card the server refuses: "this key card cannot recover the system", no password asked', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.checkIsSystemKeyCard, keyCardInUse);
    const { seen } = renderCardTable('keyCards', { [apiPaths.keyCardCheckCanRecovery]: () => ({ data: { canRecovery: false, prepareId: null } }) });
    await screen.findByText('DE000003');
    await user.click(button('Recover the system key', toolbar()));
    const dialog = await dialogTitled('Recover the system key');
    expect(await within(dialog).findByText('this key card cannot recover the system')).toBeInTheDocument();
    expect(bodiesOf(seen, apiPaths.keyCardCheckCanRecovery)).toEqual([{ fixedNo: 'DE000002' }]);
    expect(within(dialog).queryByLabelText('Customer password')).not.toBeInTheDocument();
    expect(bodiesOf(seen, apiPaths.keyCardRecoverySystemKey)).toEqual([]);
  });

  it('an administrator card on the reader: named as such, the system key card in use asked for, the server not asked (issue 25, item 11)', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.checkIsSystemKeyCard, { code: 0, data: { fixedNo: 'DE000010', isSystemKeyCard: false } });
    issuer.on(cardIssuerPaths.readBaseInfo, { code: 0, data: { fixedNo: 'DE000010', cardClass: 'adminLogin' } });
    const { seen } = renderCardTable('keyCards');
    await screen.findByText('DE000003');
    await user.click(button('Recover the system key', toolbar()));
    expect(
      await within(await dialogTitled('Recover the system key')).findByText('The card on the reader is administrator login card DE000010; this step needs the system key card in use: place that card on the reader'),
    ).toBeInTheDocument();
    expect(bodiesOf(seen, apiPaths.keyCardCheckCanRecovery)).toEqual([]);
  });

  it('the customer password: a wrong one may be typed again; the right one restores the key', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.checkIsSystemKeyCard, keyCardInUse);
    issuer.on(cardIssuerPaths.recoverySystemKey, keyCardRead);
    let tries = 0;
    const { seen } = renderCardTable(
      'keyCards',
      {
        [apiPaths.keyCardCheckCanRecovery]: () => ({ data: { canRecovery: true, prepareId: 'V1' } }),
        [apiPaths.keyCardRecoverySystemKey]: () =>
          (tries += 1) === 1 ? { envelope: { code: codes.customerPasswordWrong, msg: 'The customer password does not match the card on the reader', data: null } } : { data: { ...doneGate, hasSecret: true } },
      },
      { ...doneGate, hasSecret: false },
    );
    expect(await screen.findByText(/The server cannot open its system key/)).toBeInTheDocument();
    await screen.findByText('DE000003');
    await user.click(button('Recover the system key', toolbar()));
    const dialog = await dialogTitled('Recover the system key');
    const password = await within(dialog).findByLabelText('Customer password');
    await user.type(password, 'Wrong#2026{Enter}');
    expect(await within(dialog).findByText('The customer password does not match the card on the reader')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Customer password'), 'Customer#2026');
    await user.click(button('Recover', dialog));
    expect(await within(dialog).findByText('The system key is recovered')).toBeInTheDocument();

    const confirms = bodiesOf(seen, apiPaths.keyCardRecoverySystemKey);
    expect(confirms).toEqual([
      { prepareId: 'V1', isSuccess: true, fixedNo: 'DE000002', image: '435301020b', customerPwd: await passwordDigest('Wrong#2026', 'sm3') },
      { prepareId: 'V1', isSuccess: true, fixedNo: 'DE000002', image: '435301020b', customerPwd: await passwordDigest('Customer#2026', 'sm3') },
    ]);
    expect(issuer.cardCalls().filter((call) => call.path === cardIssuerPaths.recoverySystemKey)[0]?.body).toEqual({ cardKind: 11, cardFixedNo: 'DE000002' });
    await act(() => vi.advanceTimersByTimeAsync(2100));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByText('The system key is recovered')).toBeInTheDocument();
  });

  it('Cancel at the password forgets the checked recovery (isSuccess false)', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.checkIsSystemKeyCard, keyCardInUse);
    const { seen } = renderCardTable('keyCards', {
      [apiPaths.keyCardCheckCanRecovery]: () => ({ data: { canRecovery: true, prepareId: 'V2' } }),
      [apiPaths.keyCardRecoverySystemKey]: () => ({ data: doneGate }),
    });
    await screen.findByText('DE000003');
    await user.click(button('Recover the system key', toolbar()));
    const dialog = await dialogTitled('Recover the system key');
    await within(dialog).findByLabelText('Customer password');
    await user.click(button('Cancel', dialog));
    await waitFor(() => expect(bodiesOf(seen, apiPaths.keyCardRecoverySystemKey)).toEqual([{ prepareId: 'V2', isSuccess: false, fixedNo: 'DE000002' }]));
  });

  it('a signed-in administrator may open the key cards while the server has lost its key; without any token it goes to the explanation', async () => {
    storage.masterCardToken.set(null);
    storage.accessToken.set('session-1');
    const lost = { ...doneGate, hasSecret: false };
    const first = renderCardTable('keyCards', {}, lost);
    expect(await screen.findByText('DE000003')).toBeInTheDocument();
    first.unmount();
    storage.accessToken.set(null);
    const second = renderCardTable('keyCards', {}, lost);
    await waitFor(() => expect(second.router.state.location.pathname).toBe('/re-swipe-sys-sceret'));
  });
});
