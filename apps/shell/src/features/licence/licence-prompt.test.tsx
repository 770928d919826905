import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { LicencePermission } from '@campus/contracts';
import { apiPaths } from '@campus/contracts';
import { i18n } from '../../lib/i18n.ts';
import * as storage from '../../lib/storage.ts';
import { resetLicenceDialogs, useLicenceDialogs } from './licence-dialog-state.ts';
import { installFakeApi } from '../../../test/fake-api.ts';
import { renderShell } from '../../../test/render-shell.tsx';
import LicencePrompt from './licence-prompt.tsx';
import { expiredForAdmin } from './licence-fixtures.test-data.ts';


const admin = expiredForAdmin;
let permission: LicencePermission = admin;
/** 'View details': the app layer opens About System on its Licenses tab (app/signed-in-dialogs.test.tsx). */
let viewDetails = vi.fn<() => void>();

const renderPrompt = () => renderShell(<LicencePrompt onViewDetails={viewDetails} detailsOpen={false} />);

beforeEach(async () => {
  permission = admin;
  viewDetails = vi.fn<() => void>();
  installFakeApi({ [apiPaths.licencePermission]: () => ({ data: permission }), [apiPaths.logout]: () => ({ data: null }) });
  storage.accessToken.set('tok');
  storage.licenceAbnormal.set(true);
  resetLicenceDialogs();
  await i18n.changeLanguage('en-US');
});

afterEach(() => {
  localStorage.clear();
  resetLicenceDialogs();
});

describe('LicencePrompt', () => {
  it('expired, for an administrator: the supplier text and every link; each link opens its dialog and the prompt steps aside', async () => {
    renderPrompt();
    expect(await screen.findByText('The licence has expired. Please ask the supplier for a new licence.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Register a 30-day trial' }));
    expect(useLicenceDialogs.getState().trial).toBe(true);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    resetLicenceDialogs();
    await userEvent.click(await screen.findByRole('button', { name: 'Apply for a formal licence' }));
    expect(useLicenceDialogs.getState().upload).toBe(true);
    resetLicenceDialogs();
    await userEvent.click(await screen.findByRole('button', { name: 'View details' }));
    expect(viewDetails).toHaveBeenCalledTimes(1);
  });

  it('back from the upload dialog it asks again and says what holds now', async () => {
    permission = { ...admin, licenseType: 4, licenseState: 0 };
    renderPrompt();
    await userEvent.click(await screen.findByRole('button', { name: 'Apply for a formal licence' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // an expired licence was uploaded there and not activated
    permission = { ...admin, licenseType: 2, licenseState: 6 };
    resetLicenceDialogs();
    expect(await screen.findByText('None of the licences is within its validity period.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Licence' })).toBeInTheDocument();
  });

  it('no licence yet: the welcome text, only the links allowed', async () => {
    permission = { ...admin, licenseType: 4, isViewPermission: false, isAddOfficialPermission: false };
    renderPrompt();
    expect(await screen.findByRole('dialog', { name: 'Welcome' })).toHaveTextContent('No licence has been added to this system yet');
    expect(screen.getByRole('button', { name: 'Register a 30-day trial' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'View details' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Apply for a formal licence' })).toBeNull();
  });

  it('tampered without view permission: the error dialog, with a way back to login', async () => {
    permission = { ...admin, licenseType: 1, isViewPermission: false };
    const { router } = renderPrompt();
    expect(await screen.findByRole('dialog', { name: 'Authorization tampered' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Register a 30-day trial' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Return to login' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('anyone but a system administrator: no valid licence, contact the administrator, Return to login signs out', async () => {
    permission = { ...admin, isSystemAdmin: false };
    const { router } = renderPrompt();
    expect(await screen.findByText('There is no valid licence. Please contact the administrator: the system cannot be used.')).toBeInTheDocument();
    expect(screen.getAllByRole('button').map((entry) => entry.textContent)).toEqual(['Return to login']);
    await userEvent.click(screen.getByRole('button', { name: 'Return to login' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(storage.accessToken.get()).toBeNull();
  });

  it('in zh-MO', async () => {
    await i18n.changeLanguage('zh-MO');
    renderPrompt();
    expect(await screen.findByText('許可證已過期，請聯絡供應商取得新的許可證。')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '返回登入' })).toBeInTheDocument();
  });
});
