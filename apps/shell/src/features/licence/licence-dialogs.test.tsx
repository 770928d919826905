import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { message } from 'antd';
import type { LicenceUploadResult } from '@campus/contracts';
import { apiPaths } from '@campus/contracts';
import { i18n } from '../../lib/i18n.ts';
import * as storage from '../../lib/storage.ts';
import { passwordDigest } from '../../lib/crypto.ts';
import { openActivation, openLicenceUpload, openTrial, resetLicenceDialogs, useLicenceDialogs } from './licence-dialog-state.ts';
import { installFakeApi, type SeenCall } from '../../../test/fake-api.ts';
import { renderShell } from '../../../test/render-shell.tsx';
import { licenceDetail } from './licence-fixtures.test-data.ts';
import LicenceDialogs from './licence-dialogs.tsx';


let seen: SeenCall[] = [];
const uploadResults: LicenceUploadResult[] = [
  { fileName: 'campus-2026.lic', ok: true, id: 'L7', code: 'LIC-7', msg: '' },
  { fileName: 'other-site.lic', ok: false, id: null, code: null, msg: 'The licence is for another installation' },
];

beforeEach(async () => {
  seen = installFakeApi({
    [apiPaths.licenceUpload]: () => ({ data: uploadResults }),
    [apiPaths.licenceOldDetail]: () => ({ data: null }),
    [apiPaths.licenceDetail]: (call) => ({ data: licenceDetail(Number((call.body as { id: string }).id.slice(1))) }),
    [apiPaths.licenceActivate]: () => ({ data: null }),
    [apiPaths.licenceAppList]: () => ({ data: [{ appId: 'kq', appName: 'Attendance' }, { appId: 'fk', appName: 'Visitors' }] }),
    [apiPaths.addTrialLicence]: () => ({ data: null }),
    [apiPaths.logout]: () => ({ data: null }),
  });
  storage.accessToken.set('tok');
  storage.tenantCode.set('1001');
  storage.utcDiff.set(480);
  resetLicenceDialogs();
  await i18n.changeLanguage('en-US');
});

afterEach(async () => {
  localStorage.clear();
  resetLicenceDialogs();
  message.destroy();
  await waitFor(() => expect(document.querySelector('.ant-message-notice')).toBeNull());
});

const calls = (url: string) => seen.filter((call) => call.url === url);
const button = (name: string | RegExp) => screen.getByRole('button', { name });
const lic = (name: string) => new File(['{"alg":"Ed25519"}'], name, { type: 'application/octet-stream' });

describe('licence add - upload file', () => {
  it('refuses what is not .lic by name, keeps Next disabled while empty, sends the files as multipart and shows each result', async () => {
    renderShell(<LicenceDialogs />);
    act(() => openLicenceUpload());
    expect(await screen.findByRole('dialog', { name: 'licence add - upload file' })).toBeInTheDocument();
    expect(button('Next')).toBeDisabled();
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    expect(input).toHaveAttribute('accept', '.lic');
    expect(input.multiple).toBe(true);
    const picker = userEvent.setup({ applyAccept: false });
    await picker.upload(input, [lic('notes.txt')]);
    expect(await screen.findByText('notes.txt is not a .lic file')).toBeInTheDocument();
    expect(button('Next')).toBeDisabled();
    // rc-upload renders a fresh input after each pick
    await picker.upload(document.querySelector<HTMLInputElement>('input[type="file"]')!, [lic('campus-2026.lic'), lic('other-site.LIC')]);
    expect(await screen.findByText('campus-2026.lic')).toBeInTheDocument();
    expect(screen.getByText('other-site.LIC')).toBeInTheDocument();
    expect(calls(apiPaths.licenceUpload)).toHaveLength(0);
    expect(button('Next')).toBeEnabled();
    await userEvent.click(button('Next'));
    expect(await screen.findByText('Upload results')).toBeInTheDocument();
    const [sent] = calls(apiPaths.licenceUpload);
    expect(sent!.body).toBeInstanceOf(FormData);
    expect((sent!.body as FormData).getAll('files').map((file) => (file as File).name)).toEqual(['campus-2026.lic', 'other-site.LIC']);
    // no JSON type: the browser writes multipart/form-data with its boundary
    expect(sent!.config.headers.has('Content-Type')).toBe(false);
    expect(screen.getByText('Uploaded')).toBeInTheDocument();
    expect(screen.getByText('The licence is for another installation')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Activate other-site.lic' })).toBeNull();
    await userEvent.click(button('Activate campus-2026.lic'));
    expect(useLicenceDialogs.getState()).toMatchObject({ upload: false, activation: 'L7' });
  });
});

describe('activation', () => {
  it('shows none as the old licence and the new one; Activate only once ticked; success signs out to /login', async () => {
    const { router } = renderShell(<LicenceDialogs />);
    act(() => openActivation('L3'));
    const dialog = await screen.findByRole('dialog', { name: 'Licence activation' });
    expect(await screen.findByText('None')).toBeInTheDocument();
    expect(calls(apiPaths.licenceOldDetail)).toHaveLength(1);
    expect(calls(apiPaths.licenceDetail).map((call) => call.body)).toEqual([{ id: 'L3' }]);
    await userEvent.click(screen.getByRole('tab', { name: 'New Licence' }));
    expect(await screen.findByText('LIC-3')).toBeInTheDocument();
    expect(dialog).toHaveTextContent('1 year 30 days');
    const activate = button('Activate');
    expect(activate).toBeDisabled();
    await userEvent.click(screen.getByRole('checkbox'));
    expect(activate).toBeEnabled();
    await userEvent.click(activate);
    expect(await screen.findByText('Activation succeeded, re-login required')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(calls(apiPaths.licenceActivate).map((call) => call.body)).toEqual([{ id: 'L3' }]);
    expect(calls(apiPaths.logout)).toHaveLength(1);
    expect(storage.accessToken.get()).toBeNull();
  });
});

describe('Register Trial Licence', () => {
  it('Register stays disabled until the password is filled; applications are required; the digest is sent; success signs out', async () => {
    const { router } = renderShell(<LicenceDialogs />);
    act(() => openTrial());
    const dialog = await screen.findByRole('dialog', { name: 'Register Trial Licence' });
    expect(dialog).toHaveTextContent('(30 days)');
    await screen.findByRole('checkbox', { name: 'Attendance' });
    const register = button('Register');
    expect(register).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Administrator password'), 'Campus#2026');
    expect(register).toBeEnabled();
    await userEvent.click(register);
    expect(await screen.findByText('Choose at least one application')).toBeInTheDocument();
    expect(calls(apiPaths.addTrialLicence)).toHaveLength(0);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Attendance' }));
    await userEvent.click(register);
    expect(await screen.findByText('Registration successful, you need to log in again')).toBeInTheDocument();
    expect(calls(apiPaths.addTrialLicence).map((call) => call.body)).toEqual([{ appIds: ['kq'], oprtPwd: await passwordDigest('Campus#2026', 'sha256') }]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });
});
