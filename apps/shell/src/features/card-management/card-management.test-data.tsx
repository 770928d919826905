import { screen, within } from '@testing-library/react';
import type { AdminLoginCardRow, GateSetupState, SystemKeyCardRow } from '@campus/contracts';
import { apiPaths, codes } from '@campus/contracts';
import type { FakeAnswer, FakeRoutes, SeenCall } from '../../../test/fake-api.ts';
import { freshGate, renderCardScreen } from '../../../test/render-card-screen.tsx';
import CardManagementPage from './card-management-page.tsx';
import type { CardTableKind } from './card-table-kinds.ts';

/** A gate installation with every set-up step done. */
export const doneGate: GateSetupState = { ...freshGate, isInit: true, hasSecret: true, isIssueSecretCard: true, isIssueSuperAdminCard: true, customerNo: '10001' };

const created = Date.UTC(2026, 0, 5, 8, 0, 0);
const adminCard = (id: string, fixedNo: string, state: number, oprtId = 'u1', oprtNo = 'sysadmin', oprtName = 'System Admin'): AdminLoginCardRow => ({
  id,
  oprtNo,
  oprtName,
  kindNum: 11,
  fixedNo,
  state,
  oprtId,
  num: Number(id.slice(1)),
  createTime: created,
});

/** One administrator card in each state. */
export const adminCards: AdminLoginCardRow[] = [
  adminCard('a1', 'DE000010', 20),
  adminCard('a2', 'DE000011', 20, 'u2', 'admin2', 'Admin Two'),
  adminCard('a3', 'DE000012', 40),
  adminCard('a4', 'DE000013', 80),
  adminCard('a5', 'DE000014', 60),
  adminCard('a6', 'DE000015', 30),
];

export const keyCards: SystemKeyCardRow[] = [
  { id: 'k1', kindNum: 11, fixedNo: 'DE000002', state: 20, createTime: created },
  { id: 'k2', kindNum: 11, fixedNo: 'DE000003', state: 60, createTime: created },
];

export const systemAdmins = [
  { id: 'u1', no: 'sysadmin', name: 'System Admin' },
  { id: 'u2', no: 'admin2', name: 'Admin Two' },
];

const stateOptions = [20, 40, 80].map((value) => ({ value, label: `state ${value}` }));
const kindOptions = [{ value: 11, label: 'Management card' }];

/** The table calls of both kinds of card: the option lists and a Search answering every row. */
export function tableRoutes(kind: CardTableKind, rows: readonly unknown[] = kind === 'adminCards' ? adminCards : keyCards): FakeRoutes {
  const search = (): FakeAnswer => ({ envelope: { code: 0, msg: 'ok', data: rows, recordCount: rows.length } });
  return kind === 'adminCards'
    ? {
        [apiPaths.adminCardStateList]: () => ({ data: stateOptions }),
        [apiPaths.adminCardKindList]: () => ({ data: kindOptions }),
        [apiPaths.adminCardGetSystemAdmin]: () => ({ data: systemAdmins }),
        [apiPaths.adminCardSearch]: search,
      }
    : {
        [apiPaths.keyCardStateList]: () => ({ data: stateOptions }),
        [apiPaths.keyCardKindList]: () => ({ data: kindOptions }),
        [apiPaths.keyCardSearch]: search,
        [apiPaths.trustedIssuerList]: () => ({ data: [] }),
      };
}

/** The management screen of `kind` against the fake server; the mother-card swipes and /home are stub pages. */
export function renderCardTable(kind: CardTableKind, routes: FakeRoutes = {}, state: GateSetupState = doneGate) {
  const path = kind === 'adminCards' ? '/systemadmin-logincard' : '/system-keycard';
  return renderCardScreen(path, <CardManagementPage kind={kind} />, {
    state,
    routes: { ...tableRoutes(kind), ...routes },
    elsewhere: ['/swipe-master-card-gm', '/key-card-swipe-master-card-gm', '/select-func', '/home', '/re-swipe-sys-sceret', '/login'],
  });
}

/** HTTP 401 with code 221: neither a master-card token nor a session. */
export function refusedToken(): FakeAnswer {
  const data = { code: codes.masterCardTokenInvalid, msg: 'Swipe the mother card again', data: null };
  return { status: 401, body: data };
}

/** The open dialog titled `title` (antd's aria-labelledby ids are all "test-id" under test, so not by its name). */
export async function dialogTitled(title: string): Promise<HTMLElement> {
  const heading = await screen.findByText(title, { selector: '.ant-modal-title, .ant-modal-title *' });
  return heading.closest<HTMLElement>('[role="dialog"]')!;
}

/** A button by its visible text (the close icons of antd's dialogs are called "Close" too). */
export const button = (text: string, scope: HTMLElement = document.body) => within(scope).getByText(text, { selector: 'button, button *' }).closest('button')!;
// by selector, not by role: role queries walk antd's whole tree and take a second each in jsdom
export const toolbar = () => document.querySelector<HTMLElement>('[role="toolbar"][aria-label="Card actions"]')!;
export const rowCheckbox = (fixedNo: string) => document.querySelector<HTMLInputElement>(`input[aria-label="Select card ${fixedNo}"]`)!;
export const bodiesOf = (seen: SeenCall[], url: string) => seen.filter((call) => call.url === url).map((call) => call.body);
export const tokenOf = (call: SeenCall | undefined) => call?.config.headers.get('token');
