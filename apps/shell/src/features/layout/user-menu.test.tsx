import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../../lib/i18n.ts';
import { UserMenu, type UserMenuActions } from './user-menu.tsx';


function actions(): UserMenuActions {
  return { onChangePassword: vi.fn(), onAbout: vi.fn(), onDeviceService: vi.fn(), onOpsPlatform: vi.fn(), onBackupLogs: vi.fn(), onQuit: vi.fn() };
}

async function openMenu(backupLogs: boolean, handlers = actions()) {
  render(
    <I18nextProvider i18n={i18n}>
      <UserMenu name="Staff" loginTime={undefined} entries={{ deviceService: false, opsPlatform: false, backupLogs }} actions={handlers} />
    </I18nextProvider>,
  );
  await userEvent.click(screen.getByTestId('user-menu'));
  await waitFor(() => expect(screen.getByText('About System')).toBeInTheDocument());
  return handlers;
}

beforeEach(async () => {
  await i18n.changeLanguage('en-US');
});

describe('UserMenu: Backup Logs (spec §6)', () => {
  it('is listed when the entry is on, and opens the backup logs', async () => {
    const handlers = await openMenu(true);
    await userEvent.click(screen.getByText('Backup Logs'));
    expect(handlers.onBackupLogs).toHaveBeenCalledTimes(1);
    expect(handlers.onAbout).not.toHaveBeenCalled();
  });

  it('is not listed when the entry is off', async () => {
    await openMenu(false);
    expect(screen.queryByText('Backup Logs')).toBeNull();
  });
});
