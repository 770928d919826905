import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { sm2 } from 'sm-crypto-v2';
import { apiPaths, cardIssuerPaths, codes, readerCodes } from '@campus/contracts';
import { passwordDigest } from '../../lib/crypto.ts';
import { i18n } from '../../lib/i18n.ts';
import { registerNotifier } from '../../lib/request.ts';
import * as storage from '../../lib/storage.ts';
import { peekSignOutNotice } from '../../lib/sign-out-notice.ts';
import { fakeIssuer, useOneRealmTextEncoder } from '../../../test/fake-issuer.ts';
import { adminCards, bodiesOf, button, dialogTitled, refusedToken, renderCardTable, rowCheckbox, tokenOf, toolbar } from './card-management.test-data.tsx';

const toasts: string[] = [];

beforeEach(async () => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  useOneRealmTextEncoder();
  toasts.length = 0;
  registerNotifier({ error: (text) => toasts.push(text) });
  storage.masterCardToken.set('master-1', 1800);
  await i18n.changeLanguage('en-US');
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

const stateButtons = ['Report lost', 'Found again', 'Freeze', 'Unfreeze', 'Damaged', 'Recycle', 'Write again'] as const;
const enabledButtons = () => stateButtons.filter((name) => button(name, toolbar()).hasAttribute('disabled') === false);

async function tableShown() {
  expect(await screen.findByText('DE000015')).toBeInTheDocument();
}

describe('/systemadmin-logincard: the administrator login card table (spec §2, §4, §9)', () => {
  it('lists the cards with the server’s first page request, the master-card token, a way back to the login page', async () => {
    const { seen } = renderCardTable('adminCards');
    await tableShown();
    expect(screen.getByRole('heading', { name: 'System administrator login cards' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', '/login');
    const search = seen.find((call) => call.url === apiPaths.adminCardSearch);
    expect(search?.body).toEqual({ page: { index: 1, size: 15 }, filters: [], orderBys: [{ field: 'createTime', isAsc: false }] });
    expect(tokenOf(search)).toBe('master-1');
    // the states as labels, the holder's account and name, the card kind by its name
    expect(screen.getAllByText('In use')).toHaveLength(2);
    expect(screen.getAllByText('Management card')).toHaveLength(6);
    expect(screen.getByText('Admin Two')).toBeInTheDocument();
    expect(screen.getByText('6 cards')).toBeInTheDocument();
  });

  it('filters by free text and state on Search (or Enter), back to page 1; Reset clears them', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { seen } = renderCardTable('adminCards', { [apiPaths.adminCardSearch]: () => ({ envelope: { code: 0, msg: 'ok', data: adminCards, recordCount: 40 } }) });
    await tableShown();
    // paging of spec §9: 15 a page (40 cards: 3 pages), the size options and a quick jumper
    expect(screen.getByText('40 cards')).toBeInTheDocument();
    expect(screen.getByTitle('3')).toBeInTheDocument();
    expect(document.querySelector('.ant-pagination-options-quick-jumper input')).not.toBeNull();
    const lastSearch = () => bodiesOf(seen, apiPaths.adminCardSearch).at(-1) as { page: unknown; filters: unknown };
    await user.click(screen.getByTitle('2'));
    await waitFor(() => expect(lastSearch().page).toEqual({ index: 2, size: 15 }));
    await user.type(screen.getByLabelText('Search'), ' de00001 {Enter}');
    await waitFor(() => expect(lastSearch().filters).toEqual([{ field: 'likeSearch', value: 'de00001' }]));
    await user.click(screen.getByLabelText('States'));
    // the states named as the table names them (issue 25, item 16: the filter said "lost", the table "Lost")
    expect(await screen.findByTitle('In use')).toBeInTheDocument();
    expect(screen.getByTitle('Frozen')).toBeInTheDocument();
    await user.click(screen.getByTitle('Lost'));
    await user.click(button('Search'));
    await waitFor(() =>
      expect(lastSearch()).toEqual({
        page: { index: 1, size: 15 },
        filters: [
          { field: 'likeSearch', value: 'de00001' },
          { field: 'states', value: '[40]' },
        ],
        orderBys: [{ field: 'createTime', isAsc: false }],
      }),
    );
    await user.click(button('Reset'));
    await waitFor(() => expect(lastSearch().filters).toEqual([]));
  });

  it('a signed-in system administrator without a master-card token uses his access token', async () => {
    storage.masterCardToken.set(null);
    storage.accessToken.set('session-1');
    const { seen } = renderCardTable('adminCards');
    await tableShown();
    expect(tokenOf(seen.find((call) => call.url === apiPaths.adminCardSearch))).toBe('session-1');
  });

  it('enables each action exactly for the selections the state rules allow', async () => {
    renderCardTable('adminCards');
    await tableShown();
    expect(enabledButtons()).toEqual([]);
    expect(button('Issue a card', toolbar())).toBeEnabled();
    expect(button('Find the card on the reader', toolbar())).toBeEnabled();
    // the selection as the operator ticks and unticks rows
    const toggle = (...fixedNos: string[]) => act(() => fixedNos.forEach((fixedNo) => fireEvent.click(rowCheckbox(fixedNo))));

    await toggle('DE000010');
    expect(enabledButtons()).toEqual(['Report lost', 'Freeze', 'Damaged', 'Recycle', 'Write again']);
    await toggle('DE000011');
    expect(enabledButtons()).toEqual(['Report lost', 'Freeze']);
    // a lost card among cards in use: nothing applies to all of them
    await toggle('DE000012');
    expect(enabledButtons()).toEqual([]);
    await toggle('DE000010', 'DE000011');
    expect(enabledButtons()).toEqual(['Found again', 'Damaged']);
    await toggle('DE000012', 'DE000013');
    expect(enabledButtons()).toEqual(['Unfreeze', 'Damaged', 'Recycle']);
    await toggle('DE000013', 'DE000014', 'DE000015');
    expect(enabledButtons()).toEqual([]);
  });

  it('one card: the confirmation speaks of that one card and its holder (issue 25, item 11)', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderCardTable('adminCards');
    await tableShown();
    await user.click(rowCheckbox('DE000010'));
    await user.click(button('Freeze', toolbar()));
    const dialog = await dialogTitled('Freeze');
    expect(within(dialog).getByText('Freeze administrator login card DE000010? A frozen card cannot sign in until it is unfrozen.')).toBeInTheDocument();
    expect(within(dialog).getByText('Its holder is signed out at once.')).toBeInTheDocument();
  });

  it('reporting his own card lost ends the administrator\'s session: /login, which says why (issue 25, item 18)', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    storage.masterCardToken.set(null);
    storage.accessToken.set('session-1');
    // the server ended every session of the card's holder: his own session is refused from now on
    const { router } = renderCardTable('adminCards', { [apiPaths.adminCardLoss]: () => ({ data: null }), [apiPaths.userDetail]: refusedToken });
    await tableShown();
    await user.click(rowCheckbox('DE000010'));
    await user.click(button('Report lost', toolbar()));
    await user.click(button('Report lost', await screen.findByRole('dialog')));
    expect(await screen.findByText('page /login')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(storage.isSignedIn()).toBe(false);
    expect(peekSignOutNotice()).toBe('cardManagement.ownCardSessionEnded.loss');
    expect(i18n.t(peekSignOutNotice()!)).toBe('Your own administrator login card was reported lost, so your session has ended. Sign in again with your password.');
  });

  it('another administrator\'s card reported lost: the session lives on and the table stays', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    storage.masterCardToken.set(null);
    storage.accessToken.set('session-1');
    const { router } = renderCardTable('adminCards', { [apiPaths.adminCardLoss]: () => ({ data: null }), [apiPaths.userDetail]: () => ({ data: { no: 'sysadmin' } }) });
    await tableShown();
    await user.click(rowCheckbox('DE000011'));
    await user.click(button('Report lost', toolbar()));
    await user.click(button('Report lost', await screen.findByRole('dialog')));
    expect(await screen.findByText('Reported lost: DE000011')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/systemadmin-logincard');
    expect(storage.isSignedIn()).toBe(true);
    expect(peekSignOutNotice()).toBeNull();
  });

  it('asks first, then reports the selected cards lost in one call, reloads the table and clears the selection', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { seen } = renderCardTable('adminCards', { [apiPaths.adminCardLoss]: () => ({ data: null }) });
    await tableShown();
    await user.click(rowCheckbox('DE000010'));
    await user.click(rowCheckbox('DE000011'));
    await user.click(button('Report lost', toolbar()));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Report these 2 administrator login cards lost: DE000010, DE000011? A lost card cannot sign in until it is found again.')).toBeInTheDocument();
    expect(within(dialog).getByText('Their holders are signed out at once.')).toBeInTheDocument();
    expect(bodiesOf(seen, apiPaths.adminCardLoss)).toEqual([]);
    const searches = bodiesOf(seen, apiPaths.adminCardSearch).length;

    await user.click(button('Report lost', dialog));
    expect(await screen.findByText('Reported lost: DE000010, DE000011')).toBeInTheDocument();
    expect(bodiesOf(seen, apiPaths.adminCardLoss)).toEqual([{ ids: ['a1', 'a2'] }]);
    expect(tokenOf(seen.find((call) => call.url === apiPaths.adminCardLoss))).toBe('master-1');
    await waitFor(() => expect(bodiesOf(seen, apiPaths.adminCardSearch).length).toBeGreaterThan(searches));
    expect(rowCheckbox('DE000010')).not.toBeChecked();
    expect(rowCheckbox('DE000011')).not.toBeChecked();
  });

  it('damage confirms that the card is damaged and recovered; Cancel sends nothing', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { seen } = renderCardTable('adminCards', { [apiPaths.adminCardDamage]: () => ({ data: null }) });
    await tableShown();
    await user.click(rowCheckbox('DE000013'));
    await user.click(button('Damaged', toolbar()));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/Confirm that card DE000013 is damaged and has been recovered/)).toBeInTheDocument();
    await user.click(button('Cancel', dialog));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodiesOf(seen, apiPaths.adminCardDamage)).toEqual([]);
    expect(rowCheckbox('DE000013')).toBeChecked();

    await user.click(button('Damaged', toolbar()));
    await user.click(button('Damaged', await screen.findByRole('dialog')));
    expect(await screen.findByText('Recorded as damaged and recovered: DE000013')).toBeInTheDocument();
    expect(bodiesOf(seen, apiPaths.adminCardDamage)).toEqual([{ ids: ['a4'] }]);
  });

  it('a refusal shows the server’s message (238 names the card)', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const msg = 'Card DE000010 is lost: this action is not allowed for it (nothing was changed)';
    renderCardTable('adminCards', { [apiPaths.adminCardFreeze]: () => ({ envelope: { code: codes.cardActionNotAllowed, msg, data: null } }) });
    await tableShown();
    await user.click(rowCheckbox('DE000010'));
    await user.click(button('Freeze', toolbar()));
    await user.click(button('Freeze', await screen.findByRole('dialog')));
    expect(await screen.findByRole('alert')).toHaveTextContent(msg);
  });

  it('neither token good (401, code 221): straight to the mother card swipe, the token forgotten', async () => {
    const { router } = renderCardTable('adminCards', { [apiPaths.adminCardSearch]: refusedToken });
    await waitFor(() => expect(router.state.location.pathname).toBe('/swipe-master-card-gm'));
    expect(storage.masterCardToken.get()).toBeNull();
  });

  it('Finish forgets the master-card token', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { router } = renderCardTable('adminCards');
    await tableShown();
    await user.click(button('Finish'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/select-func'));
    expect(storage.masterCardToken.get()).toBeNull();
  });
});

describe('issuing an administrator login card (two-phase, spec §4 "Card reader flow")', () => {
  const keys = sm2.generateKeyPairHex();
  const prepared = { prepareId: 'P1', fixedNo: 'DE000020', image: '4353aa', alreadyWritten: false };
  const issueRoutes = (canIssue = true) => ({
    [apiPaths.passwordComplexity]: () => ({ data: { regex: '', tip: '', sealKey: keys.publicKey } }),
    [apiPaths.operatorIsCanIssueCard]: () => ({ data: { canIssue } }),
    [apiPaths.adminCardGetIssueData]: () => ({ data: prepared }),
    [apiPaths.adminCardIssue]: () => ({ data: null }),
  });

  async function fillIssueForm(user: ReturnType<typeof userEvent.setup>) {
    await user.click(button('Issue a card', toolbar()));
    const form = await dialogTitled('Issue an administrator login card');
    await user.click(within(form).getByLabelText('System administrator'));
    await user.click(await screen.findByTitle('Admin Two (admin2)'));
    await user.type(within(form).getByLabelText('Card password'), 'Card#2026a');
    await user.type(within(form).getByLabelText('Confirm card password'), 'Card#2026a');
    await user.click(button('Issue the card', form));
    return form;
  }

  it('checks the operator, prepares with the sealed password, writes the blank card and confirms isSuccess true', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.checkOprtLoginCardCanIssue, { code: 0, data: { fixedNo: 'DE000020', canIssue: true } });
    const { seen } = renderCardTable('adminCards', issueRoutes());
    await screen.findByText('DE000015');
    await fillIssueForm(user);
    const reader = await dialogTitled('Issue the administrator login card');
    expect(await within(reader).findByText('The administrator login card of Admin Two (admin2) is issued')).toBeInTheDocument();

    // checked when he is chosen, and again just before the reader writes
    expect(bodiesOf(seen, apiPaths.operatorIsCanIssueCard)).toEqual([{ oprtId: 'u2' }, { oprtId: 'u2' }]);
    const [body] = bodiesOf(seen, apiPaths.adminCardGetIssueData) as { oprtId: string; fixedNo: string; oprtPwd: string; sealedPwd: string }[];
    expect(body).toMatchObject({ oprtId: 'u2', fixedNo: 'DE000020', oprtPwd: await passwordDigest('Card#2026a', 'sm3') });
    expect(sm2.doDecrypt(body!.sealedPwd, keys.privateKey, 1)).toBe('Card#2026a');
    expect(issuer.cardCalls().map((call) => [call.path, call.body])).toEqual([
      [cardIssuerPaths.checkOprtLoginCardCanIssue, { cardKind: 11 }],
      [cardIssuerPaths.issueOprtLoginCard, { fixedNo: 'DE000020', image: '4353aa' }],
    ]);
    expect(bodiesOf(seen, apiPaths.adminCardIssue)).toEqual([{ prepareId: 'P1', isSuccess: true }]);

    // closes by itself 2 s after the success, with the issue form; the table says what happened
    await act(() => vi.advanceTimersByTimeAsync(2100));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByText('The administrator login card of Admin Two (admin2) is issued')).toBeInTheDocument();
  });

  it('a failed write confirms isSuccess false and shows the reader’s message; the form stays to try again', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.checkOprtLoginCardCanIssue, { code: 0, data: { fixedNo: 'DE000020', canIssue: true } });
    issuer.on(cardIssuerPaths.issueOprtLoginCard, { code: readerCodes.differentCard });
    const { seen } = renderCardTable('adminCards', issueRoutes());
    await screen.findByText('DE000015');
    await fillIssueForm(user);
    const reader = await dialogTitled('Issue the administrator login card');
    expect(await within(reader).findByText('Another card was placed on the reader than the one being written')).toBeInTheDocument();
    expect(bodiesOf(seen, apiPaths.adminCardIssue)).toEqual([{ prepareId: 'P1', isSuccess: false }]);
    await user.click(button('Close', reader));
    expect(await dialogTitled('Issue an administrator login card')).toBeInTheDocument();
  });

  it('an administrator who holds a card in use: "card already exists" as soon as he is chosen, the confirm disabled (spec §5)', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { seen } = renderCardTable('adminCards', { ...issueRoutes(), [apiPaths.operatorIsCanIssueCard]: (call) => ({ data: { canIssue: (call.body as { oprtId: string }).oprtId !== 'u1' } }) });
    await screen.findByText('DE000015');
    await user.click(button('Issue a card', toolbar()));
    const form = await dialogTitled('Issue an administrator login card');
    await user.click(within(form).getByLabelText('System administrator'));
    await user.click(await screen.findByTitle('System Admin (sysadmin)'));
    expect(await within(form).findByText(/^card already exists: System Admin \(sysadmin\) already holds a card in use/)).toBeInTheDocument();
    expect(button('Issue the card', form)).toBeDisabled();
    expect(bodiesOf(seen, apiPaths.operatorIsCanIssueCard)).toEqual([{ oprtId: 'u1' }]);
    // another administrator: the text goes, the confirm is enabled again
    await user.click(within(form).getByLabelText('System administrator'));
    await user.click(await screen.findByTitle('Admin Two (admin2)'));
    await waitFor(() => expect(within(form).queryByText(/card already exists/)).not.toBeInTheDocument());
    await waitFor(() => expect(button('Issue the card', form)).toBeEnabled());
  });

  it('an administrator who holds a card in use: "card already exists", nothing on the reader', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const issuer = fakeIssuer();
    const { seen } = renderCardTable('adminCards', issueRoutes(false));
    await screen.findByText('DE000015');
    const form = await fillIssueForm(user);
    expect(await within(form).findByText(/^card already exists: Admin Two \(admin2\) already holds a card in use/)).toBeInTheDocument();
    expect(issuer.cardCalls()).toEqual([]);
    expect(bodiesOf(seen, apiPaths.adminCardGetIssueData)).toEqual([]);
  });

  it('the two passwords must match before anything is sent', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { seen } = renderCardTable('adminCards', issueRoutes());
    await screen.findByText('DE000015');
    await user.click(button('Issue a card', toolbar()));
    const form = await dialogTitled('Issue an administrator login card');
    await user.type(within(form).getByLabelText('Card password'), 'Card#2026a');
    await user.type(within(form).getByLabelText('Confirm card password'), 'Card#2026b');
    await user.click(button('Issue the card', form));
    expect(await within(form).findByText('The two passwords are inconsistent')).toBeInTheDocument();
    expect(await within(form).findByText('Please choose the system administrator')).toBeInTheDocument();
    expect(bodiesOf(seen, apiPaths.operatorIsCanIssueCard)).toEqual([]);
  });
});

describe('reader actions on one selected card', () => {
  it('recycle: prepare, the issuer checks and blanks that card, then Recycle {id, prepareId, isSuccess: true}', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const issuer = fakeIssuer();
    const { seen } = renderCardTable('adminCards', {
      [apiPaths.adminCardGetRecycleData]: () => ({ data: { prepareId: 'R1', id: 'a4', fixedNo: 'DE000013', cardKind: 11 } }),
      [apiPaths.adminCardRecycle]: () => ({ data: null }),
    });
    await screen.findByText('DE000015');
    await user.click(rowCheckbox('DE000013'));
    await user.click(button('Recycle', toolbar()));
    // asked first (WCAG 3.3.4): Cancel sends nothing
    const confirm = await dialogTitled('Recycle');
    expect(within(confirm).getByText(/^Recycle card DE000013\? It is blanked on the card reader: its holder can no longer sign in with it/)).toBeInTheDocument();
    await user.click(button('Cancel', confirm));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodiesOf(seen, apiPaths.adminCardGetRecycleData)).toEqual([]);
    expect(issuer.cardCalls()).toEqual([]);
    await user.click(button('Recycle', toolbar()));
    await user.click(button('Recycle', await dialogTitled('Recycle')));
    const reader = await dialogTitled('Recycle card DE000013');
    expect(await within(reader).findByText('Card DE000013 is recycled: it is blank and can be issued again')).toBeInTheDocument();
    expect(bodiesOf(seen, apiPaths.adminCardGetRecycleData)).toEqual([{ id: 'a4' }]);
    expect(issuer.cardCalls().map((call) => [call.path, call.body])).toEqual([
      [cardIssuerPaths.checkOprtLoginCardCanClear, { cardKind: 11, cardFixedNo: 'DE000013' }],
      [cardIssuerPaths.clearOprtLoginCard, { cardKind: 11, cardFixedNo: 'DE000013' }],
    ]);
    expect(bodiesOf(seen, apiPaths.adminCardRecycle)).toEqual([{ id: 'a4', prepareId: 'R1', isSuccess: true }]);
    await act(() => vi.advanceTimersByTimeAsync(2100));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(rowCheckbox('DE000013')).not.toBeChecked();
  });

  it('recycle: another card on the reader (final while checking) forgets the prepare with isSuccess false', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.checkOprtLoginCardCanClear, { code: readerCodes.differentCard });
    issuer.on(cardIssuerPaths.readBaseInfo, { code: 0, data: { fixedNo: 'DE000011', cardClass: 'adminLogin' } });
    const { seen } = renderCardTable('adminCards', {
      [apiPaths.adminCardGetRecycleData]: () => ({ data: { prepareId: 'R1', id: 'a1', fixedNo: 'DE000010', cardKind: 11 } }),
      [apiPaths.adminCardRecycle]: () => ({ data: null }),
    });
    await screen.findByText('DE000015');
    await user.click(rowCheckbox('DE000010'));
    await user.click(button('Recycle', toolbar()));
    await user.click(button('Recycle', await dialogTitled('Recycle')));
    const reader = await dialogTitled('Recycle card DE000010');
    // the message names the card on the reader and the one wanted (issue 25, item 11): a recycle writes nothing
    expect(
      await within(reader).findByText('The card on the reader is administrator login card DE000011; this step needs administrator login card DE000010, the one being recycled: place that card on the reader'),
    ).toBeInTheDocument();
    expect(issuer.cardCalls().map((call) => call.path)).toEqual([cardIssuerPaths.checkOprtLoginCardCanClear, cardIssuerPaths.readBaseInfo]);
    expect(bodiesOf(seen, apiPaths.adminCardRecycle)).toEqual([{ id: 'a1', prepareId: 'R1', isSuccess: false }]);
  });

  it('recycle: the tenant’s last administrator card in use is refused by the server (244) before the reader blanks it', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const issuer = fakeIssuer();
    const msg = 'Card DE000010 is the last administrator card in use: put another administrator card in use first (nothing was changed)';
    const { seen } = renderCardTable('adminCards', { [apiPaths.adminCardGetRecycleData]: () => ({ envelope: { code: codes.lastAdminCardInUse, msg, data: null } }) });
    await screen.findByText('DE000015');
    await user.click(rowCheckbox('DE000010'));
    await user.click(button('Recycle', toolbar()));
    await user.click(button('Recycle', await dialogTitled('Recycle')));
    const reader = await dialogTitled('Recycle card DE000010');
    expect(await within(reader).findByText(msg)).toBeInTheDocument();
    expect(issuer.cardCalls().filter((call) => call.path !== cardIssuerPaths.addIdentity && call.path !== cardIssuerPaths.switchIdentity)).toEqual([]);
    expect(bodiesOf(seen, apiPaths.adminCardRecycle)).toEqual([]);
  });

  it('write again: the card on the reader must be the selected one; then ReWrite, GMCard (ours) and Issue', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.readOprtLoginCard, { code: 0, data: { fixedNo: 'DE000011' } }, { code: 0, data: { fixedNo: 'DE000010' } });
    const { seen } = renderCardTable('adminCards', {
      [apiPaths.adminCardRewrite]: () => ({ data: { prepareId: 'W1', fixedNo: 'DE000010', image: '4353bb', alreadyWritten: false } }),
      [apiPaths.adminCardIssue]: () => ({ data: null }),
    });
    await screen.findByText('DE000015');
    await user.click(rowCheckbox('DE000010'));
    await user.click(button('Write again', toolbar()));
    const reader = await dialogTitled('Write card DE000010 again');
    expect(await within(reader).findByText(/The card on the reader \(DE000011\) is not the selected card \(DE000010\)/)).toBeInTheDocument();
    expect(bodiesOf(seen, apiPaths.adminCardRewrite)).toEqual([]);
    await user.click(button('Try again', reader));
    expect(await within(reader).findByText('Card DE000010 is written again: its older copies no longer sign in')).toBeInTheDocument();
    expect(bodiesOf(seen, apiPaths.adminCardRewrite)).toEqual([{ id: 'a1', fixedNo: 'DE000010' }]);
    expect(issuer.cardCalls().at(-1)).toMatchObject({ path: cardIssuerPaths.writeCard, body: { fixedNo: 'DE000010', image: '4353bb', expect: 'ours' } });
    expect(bodiesOf(seen, apiPaths.adminCardIssue)).toEqual([{ prepareId: 'W1', isSuccess: true }]);
  });

  it('seek: the card on the reader is shown alone until "Show all cards"', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.readBaseInfo, { code: 0, data: { fixedNo: 'DE000012' } }, { code: 0, data: { fixedNo: 'DE0000FF' } });
    const { seen } = renderCardTable('adminCards', {
      [apiPaths.adminCardSeek]: (call) => ({ data: (call.body as { fixedNo: string }).fixedNo === 'DE000012' ? { id: 'a3', oprtNo: 'sysadmin', oprtName: 'System Admin', kindNum: 11, fixedNo: 'DE000012', state: 40, oprtId: 'u1', num: 3, createTime: 0 } : null }),
    });
    await screen.findByText('DE000015');
    await user.click(button('Find the card on the reader', toolbar()));
    expect(await screen.findByText('Showing the card on the reader: DE000012')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('DE000015')).not.toBeInTheDocument());
    expect(screen.getByText('DE000012')).toBeInTheDocument();
    expect(bodiesOf(seen, apiPaths.adminCardSeek)[0]).toEqual({ fixedNo: 'DE000012' });
    // the card found can be acted on at once
    await user.click(rowCheckbox('DE000012'));
    expect(button('Found again', toolbar())).toBeEnabled();
    await user.click(button('Show all cards'));
    expect(await screen.findByText('DE000015')).toBeInTheDocument();

    await user.click(button('Find the card on the reader', toolbar()));
    const reader = await screen.findByRole('dialog');
    expect(await within(reader).findByText('Card DE0000FF is not in this table')).toBeInTheDocument();
  });
});
