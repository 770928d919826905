import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiPaths } from '@campus/contracts';
import { i18n } from '../lib/i18n.ts';
import { logout } from '../lib/session.ts';
import * as storage from '../lib/storage.ts';
import { closeChangePassword, openChangePassword, useChangePasswordDialog } from '../features/account/change-password-state.ts';
import { closeAbout, openAbout, useAboutDialog } from '../features/about/about-state.ts';
import { closeBackupLogs, openBackupLogs, useBackupLogDialog } from '../features/backup-log/backup-log-state.ts';
import { openActivation, openLicenceUpload, openTrial, resetLicenceDialogs, useLicenceDialogs } from '../features/licence/licence-dialog-state.ts';
import { expiredForAdmin, licenceRow } from '../features/licence/licence-fixtures.test-data.ts';
import { installFakeApi } from '../../test/fake-api.ts';
import { renderShell } from '../../test/render-shell.tsx';
import SignedInDialogs from './signed-in-dialogs.tsx';
import { signedInUser } from './signed-in-user.test-data.ts';

const licences = Array.from({ length: 3 }, (_, i) => licenceRow(i));
const expiredText = 'The licence has expired. Please ask the supplier for a new licence.';

function closeAll(): void {
  closeChangePassword();
  closeAbout();
  closeBackupLogs();
  resetLicenceDialogs();
}

// The dialogs are lazy: their first import (and its transform) comes before the tests, whose waits are for the
// dialogs' behaviour. With the import inside it the first test took about 9 s here (7 s without), and one of its
// waits ran past the 10 s limit on a busy CI machine.
beforeAll(async () => {
  await Promise.all([
    import('../features/about/about-dialog.tsx'),
    import('../features/backup-log/backup-log-dialog.tsx'),
    import('../features/licence/licences-tab.tsx'),
    import('../features/licence/licence-dialogs.tsx'),
    import('../features/licence/licence-prompt.tsx'),
  ]);
}, 120_000);

beforeEach(async () => {
  installFakeApi({
    [apiPaths.userDetail]: () => ({ data: signedInUser() }),
    [apiPaths.licencePermission]: () => ({ data: expiredForAdmin }),
    [apiPaths.versionList]: () => ({ data: [] }),
    [apiPaths.customerInfo]: () => ({ data: { customerNo: '20231', systemCode: 'SYS-7781' } }),
    [apiPaths.licenceSearch]: () => ({ data: { licenses: licences, count: licences.length } }),
    [apiPaths.logout]: () => ({ data: null }),
  });
  storage.accessToken.set('tok');
  closeAll();
  await i18n.changeLanguage('en-US');
});

afterEach(() => {
  localStorage.clear();
  closeAll();
});

/** A dialog by its title: under NODE_ENV=test antd gives every dialog title the same id, so a role query by name can miss. */
const dialogTitled = async (title: string) => (await screen.findByText(title, { selector: '.ant-modal-title' })).closest<HTMLElement>('[role="dialog"]')!;

describe('SignedInDialogs: one feature opens another one’s dialog through the app layer', () => {
  it("the licence prompt's View details opens About System on Licenses; the prompt steps aside and comes back when About closes", async () => {
    storage.licenceAbnormal.set(true);
    renderShell(<SignedInDialogs />);
    await userEvent.click(await screen.findByRole('button', { name: 'View details' }));
    const about = await dialogTitled('About System');
    await waitFor(() => expect(within(about).getByRole('tab', { name: 'Licenses' })).toHaveAttribute('aria-selected', 'true'));
    expect(await within(about).findByText('LIC-2')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText(expiredText)).not.toBeVisible());
    await userEvent.click(within(about).getByRole('button', { name: /close/i }));
    await waitFor(() => expect(screen.getByText(expiredText)).toBeVisible());
    expect(useAboutDialog.getState()).toEqual({ open: false, tab: 'versions' });
  });
});

describe('sign-out closes every dialog, whichever feature it belongs to', () => {
  it('Change Password, About System (back on Version Info), Backup Logs and the licence dialogs', async () => {
    act(() => {
      openChangePassword({ forced: true, notice: 'expired' });
      openAbout('licences');
      openBackupLogs();
      openLicenceUpload();
      openTrial();
      openActivation('L1');
    });
    await act(() => logout());
    expect(useChangePasswordDialog.getState().open).toBeNull();
    expect(useAboutDialog.getState()).toEqual({ open: false, tab: 'versions' });
    expect(useBackupLogDialog.getState().open).toBe(false);
    expect(useLicenceDialogs.getState()).toEqual({ upload: false, activation: null, trial: false });
    expect(storage.accessToken.get()).toBeNull();
  });
});
