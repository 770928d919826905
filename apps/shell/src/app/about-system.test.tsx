import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { message } from 'antd';
import type { LicenceSearchRequest, VersionEntry } from '@campus/contracts';
import { apiPaths, shellVersion } from '@campus/contracts';
import { i18n } from '../lib/i18n.ts';
import * as storage from '../lib/storage.ts';
import { closeAbout, openAbout, useAboutDialog } from '../features/about/about-state.ts';
import { resetLicenceDialogs, useLicenceDialogs } from '../features/licence/licence-dialog-state.ts';
import { installFakeApi, type SeenCall } from '../../test/fake-api.ts';
import { renderShell } from '../../test/render-shell.tsx';
import { signedInUser } from './signed-in-user.test-data.ts';
import { expiredForAdmin, licenceDetail, licenceRow } from '../features/licence/licence-fixtures.test-data.ts';
import LicencesTab from '../features/licence/licences-tab.tsx';
import AboutDialog from '../features/about/about-dialog.tsx';

// About System as the app layer composes it (signed-in-dialogs.tsx): the about feature's dialog with the
// licence feature's Licenses tab. Features do not import each other, so the test of both lives here.

const versions: VersionEntry[] = [
  { address: '10.0.0.5:6300', serviceName: 'main-front', version: shellVersion },
  { address: '10.0.0.5:6300', serviceName: 'common-service', version: '2.1.0' },
  { address: 'campus.example', serviceName: 'qy', version: '1.4.2' },
];
const allLicences = Array.from({ length: 40 }, (_, i) => licenceRow(i));

let seen: SeenCall[] = [];
/** What the server says of its build (CheckVersion): a release names each build after its commit. */
let serverVersion = `${shellVersion}+20261202.da68028`;
let isSystemAdmin = true;
let isInstallationAdmin = true;

const user = () => signedInUser({ isSystemAdmin });

beforeEach(async () => {
  serverVersion = `${shellVersion}+20261202.da68028`;
  isSystemAdmin = true;
  isInstallationAdmin = true;
  seen = installFakeApi({
    [apiPaths.licencePermission]: () => ({ data: { ...expiredForAdmin, isNormal: true, isSystemAdmin, isViewPermission: isSystemAdmin, isAddTrialPermission: false, isAddOfficialPermission: isSystemAdmin && isInstallationAdmin } }),
    [apiPaths.versionList]: () => ({ data: versions }),
    [apiPaths.versionCheck]: () => ({ data: { mjSystem: 1, version: serverVersion } }),
    [apiPaths.userDetail]: () => ({ data: user() }),
    [apiPaths.customerInfo]: () => ({ data: { customerNo: '20231', systemCode: 'SYS-7781' } }),
    [apiPaths.licenceSearch]: (call) => {
      const { index, size } = (call.body as LicenceSearchRequest).page;
      return { data: { licenses: allLicences.slice((index - 1) * size, index * size), count: allLicences.length } };
    },
    [apiPaths.licenceDetail]: (call) => ({ data: licenceDetail(Number((call.body as { id: string }).id.slice(1))) }),
  });
  storage.accessToken.set('tok');
  storage.utcDiff.set(480);
  resetLicenceDialogs();
  closeAbout();
  await i18n.changeLanguage('en-US');
});

afterEach(async () => {
  vi.useRealTimers();
  localStorage.clear();
  message.destroy();
  await waitFor(() => expect(document.querySelector('.ant-message-notice')).toBeNull());
});

function renderAbout() {
  const view = renderShell(<AboutDialog licencesTab={<LicencesTab />} />);
  act(() => openAbout());
  return view;
}

const rows = () => Array.from(document.querySelectorAll('[role="tabpanel"][aria-hidden="false"] .ant-table-tbody tr.ant-table-row'));
const calls = (url: string) => seen.filter((call) => call.url === url);

describe('About System: Version Info', () => {
  it('shows the version of the installed build, as its server says it (issue 48 item 3)', async () => {
    renderAbout();
    const dialog = screen.getByRole('dialog', { name: 'About System' });
    await waitFor(() => expect(dialog).toHaveTextContent(`Version${shellVersion}+20261202.da68028`));
  });

  it('shows its own release line when the server is of another one', async () => {
    serverVersion = '9.9.9.99999999+20301231.abcdef0';
    renderAbout();
    const dialog = screen.getByRole('dialog', { name: 'About System' });
    await waitFor(() => expect(calls(apiPaths.versionCheck)).toHaveLength(1));
    await waitFor(() => expect(dialog).toHaveTextContent(`Version${shellVersion}`));
    expect(dialog).not.toHaveTextContent('9.9.9');
  });

  it('lists node, program and version of every reported program, with the total', async () => {
    renderAbout();
    await waitFor(() => expect(screen.getByRole('dialog', { name: 'About System' })).toHaveTextContent(shellVersion));
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(rows()[2]).toHaveTextContent('campus.example');
    expect(rows()[2]).toHaveTextContent('qy');
    expect(rows()[2]).toHaveTextContent('1.4.2');
    expect(screen.getByText('3 programs in total')).toBeInTheDocument();
    expect(calls(apiPaths.licenceSearch)).toHaveLength(0);
  });

  it('pages a long list on the server: the page asked for, the total from recordCount, copying takes every page', async () => {
    const many = Array.from({ length: 20 }, (_, i) => ({ address: `node-${i}`, serviceName: `svc-${String(i).padStart(2, '0')}`, version: '1.0' }));
    installFakeApi({
      [apiPaths.versionList]: (call) => {
        const { index, size } = call.config.params as { index: number; size: number };
        return { envelope: { code: 0, msg: 'ok', data: many.slice((index - 1) * size, index * size), recordCount: many.length } as never };
      },
      [apiPaths.userDetail]: () => ({ data: user() }),
    });
    const writeText = vi.fn<(text: string) => Promise<void>>().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderAbout();
    await waitFor(() => expect(rows()).toHaveLength(15));
    expect(screen.getByText('20 programs in total')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('listitem', { name: '2' }));
    await waitFor(() => expect(rows()).toHaveLength(5));
    expect(rows()[0]).toHaveTextContent('svc-15');
    await userEvent.click(screen.getByRole('button', { name: /One Click Copying/ }));
    await waitFor(() => expect(writeText).toHaveBeenCalledTimes(1));
    expect(writeText.mock.calls[0]?.[0].split('\n')).toHaveLength(20);
  });

  it('refresh asks again and spins for at least 1 s', async () => {
    renderAbout();
    await waitFor(() => expect(rows()).toHaveLength(3));
    const refresh = screen.getByRole('button', { name: 'Refresh' });
    const spinning = () => refresh.querySelector('.anticon-spin') !== null;
    expect(spinning()).toBe(false);
    vi.useFakeTimers();
    fireEvent.click(refresh);
    await act(() => vi.advanceTimersByTimeAsync(50));
    expect(calls(apiPaths.versionList)).toHaveLength(2);
    expect(spinning()).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(900));
    expect(spinning()).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(60));
    expect(spinning()).toBe(false);
  });

  it('One Click Copying copies every row as plain text and says so', async () => {
    const writeText = vi.fn<(text: string) => Promise<void>>().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderAbout();
    await waitFor(() => expect(rows()).toHaveLength(3));
    fireEvent.click(screen.getByRole('button', { name: /One Click Copying/ }));
    await waitFor(() => expect(writeText).toHaveBeenCalledTimes(1));
    expect(writeText).toHaveBeenCalledWith(`10.0.0.5:6300\tmain-front\t${shellVersion}\n10.0.0.5:6300\tcommon-service\t2.1.0\ncampus.example\tqy\t1.4.2`);
    expect(await screen.findByText('Copied to the clipboard')).toBeInTheDocument();
  });

  it('a refused clipboard says nothing was copied', async () => {
    const writeText = vi.fn<(text: string) => Promise<void>>().mockRejectedValue(new DOMException('denied', 'NotAllowedError'));
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderAbout();
    await waitFor(() => expect(rows()).toHaveLength(3));
    fireEvent.click(screen.getByRole('button', { name: /One Click Copying/ }));
    expect(await screen.findByText('The browser refused access to the clipboard: nothing was copied')).toBeInTheDocument();
  });
});

describe('About System: Licenses', () => {
  it('shows system code, customer ID and the first page of 15, and pages on request', async () => {
    renderAbout();
    await userEvent.click(screen.getByRole('tab', { name: 'Licenses' }));
    await waitFor(() => expect(rows()).toHaveLength(15));
    expect(calls(apiPaths.licenceSearch).map((call) => call.body)).toEqual([{ page: { index: 1, size: 15 } }]);
    const tab = document.querySelector<HTMLElement>('[role="tabpanel"][aria-hidden="false"]')!;
    expect(tab).toHaveTextContent('SYS-7781');
    expect(tab).toHaveTextContent('20231');
    expect(screen.getByText('40 records in total')).toBeInTheDocument();
    expect(tab.querySelector('.ant-pagination-options-quick-jumper')).not.toBeNull();
    // row 1 ends in 2099 (permanent), row 2 has unlimited employees; row 0 is not activated
    expect(rows()[1]).toHaveTextContent('Permanent');
    expect(rows()[2]).toHaveTextContent('Unlimited');
    expect(rows()[0]).toHaveTextContent('Not activated');
    expect(rows()[0]).toHaveTextContent('LIC-0');
    await userEvent.click(within(tab).getByTitle('3'));
    await waitFor(() => expect(rows()).toHaveLength(10));
    expect(calls(apiPaths.licenceSearch).at(-1)!.body).toEqual({ page: { index: 3, size: 15 } });
    expect(rows()[0]).toHaveTextContent('LIC-30');
  });

  it('expanding a licence fetches its detail by id and shows its applications and devices', async () => {
    renderAbout();
    await userEvent.click(screen.getByRole('tab', { name: 'Licenses' }));
    await waitFor(() => expect(rows()).toHaveLength(15));
    await userEvent.click(rows()[1]!.querySelector('.ant-table-row-expand-icon')!);
    expect(await screen.findByText('Attendance 1')).toBeInTheDocument();
    expect(calls(apiPaths.licenceDetail).map((call) => call.body)).toEqual([{ id: 'L1' }]);
    const expanded = document.querySelector<HTMLElement>('.ant-table-expanded-row')!;
    expect(expanded).toHaveTextContent('Gate reader');
    expect(expanded).toHaveTextContent('Unlimited');
    expect(expanded).toHaveTextContent('Follow system permission');
  });

  it('a system administrator gets Add Authorization and Activation for licences not yet activated', async () => {
    renderAbout();
    await userEvent.click(screen.getByRole('tab', { name: 'Licenses' }));
    await waitFor(() => expect(rows()).toHaveLength(15));
    const links = screen.getAllByRole('button', { name: /^Activation LIC-/ }).map((link) => link.getAttribute('aria-label'));
    expect(links).toEqual(['Activation LIC-0', 'Activation LIC-4', 'Activation LIC-8', 'Activation LIC-12']);
    await userEvent.click(screen.getByRole('button', { name: 'Activation LIC-4' }));
    expect(useLicenceDialogs.getState().activation).toBe('L4');
    await userEvent.click(screen.getByRole('button', { name: /Add Authorization/ }));
    expect(useLicenceDialogs.getState().upload).toBe(true);
  });

  it('anyone else gets neither, nor the list the server keeps for administrators: a note instead', async () => {
    isSystemAdmin = false;
    renderAbout();
    await userEvent.click(screen.getByRole('tab', { name: 'Licenses' }));
    expect(await screen.findByText(/The licence list is shown to system administrators/)).toBeInTheDocument();
    expect(calls(apiPaths.licenceSearch)).toHaveLength(0);
    expect(rows()).toHaveLength(0);
    expect(screen.queryByRole('button', { name: /Retry/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Add Authorization/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Activation LIC-/ })).toBeNull();
  });

  it('a system administrator of a tenant who is not an installation administrator sees the list, but adds and activates nothing', async () => {
    isInstallationAdmin = false;
    renderAbout();
    await userEvent.click(screen.getByRole('tab', { name: 'Licenses' }));
    await waitFor(() => expect(rows()).toHaveLength(15));
    expect(calls(apiPaths.licencePermission)).not.toHaveLength(0);
    expect(screen.queryByRole('button', { name: /Add Authorization/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Activation LIC-/ })).toBeNull();
  });

  it('opened from a licence prompt it starts on Licenses; closed, it starts on Version Info again', async () => {
    renderShell(<AboutDialog licencesTab={<LicencesTab />} />);
    act(() => openAbout('licences'));
    await waitFor(() => expect(rows()).toHaveLength(15));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'About System' })).getByRole('button', { name: /close/i }));
    expect(useAboutDialog.getState().open).toBe(false);
    expect(useAboutDialog.getState().tab).toBe('versions');
  });
});
