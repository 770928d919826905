import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { i18n } from '../../lib/i18n.ts';
import * as storage from '../../lib/storage.ts';
import { UserMenu, type UserMenuActions } from './user-menu.tsx';


function actions(): UserMenuActions {
  return { onChangePassword: vi.fn(), onAbout: vi.fn(), onDeviceService: vi.fn(), onOpsPlatform: vi.fn(), onBackupLogs: vi.fn(), onCardTable: vi.fn(), onIdentityProviders: vi.fn(), onQuit: vi.fn() };
}

async function openMenu(backupLogs: boolean, handlers = actions(), loginTime?: number, cardTables = false, identityProviders = false) {
  render(<UserMenu name="Staff" loginTime={loginTime} entries={{ deviceService: false, opsPlatform: false, backupLogs }} cardTables={cardTables} identityProviders={identityProviders} actions={handlers} />);
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

describe('UserMenu: the card tables of a gate deployment (issue 25, item 17)', () => {
  it('lists both tables for whom the server allows them, and opens each', async () => {
    const handlers = await openMenu(false, actions(), undefined, true);
    await userEvent.click(screen.getByRole('menuitem', { name: 'System administrator login cards' }));
    expect(handlers.onCardTable).toHaveBeenCalledWith('adminCards');
    await userEvent.click(screen.getByTestId('user-menu'));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'System key cards' }));
    expect(handlers.onCardTable).toHaveBeenLastCalledWith('keyCards');
  });

  it('lists neither for anyone else', async () => {
    await openMenu(false);
    expect(screen.queryByText('System administrator login cards')).toBeNull();
    expect(screen.queryByText('System key cards')).toBeNull();
  });
});

describe('UserMenu: the tenant\'s identity providers (issue 49)', () => {
  it('is listed for a system administrator of the tenant, and opens the screen', async () => {
    const handlers = await openMenu(false, actions(), undefined, false, true);
    await userEvent.click(screen.getByRole('menuitem', { name: 'Identity providers' }));
    expect(handlers.onIdentityProviders).toHaveBeenCalledTimes(1);
    expect(handlers.onQuit).not.toHaveBeenCalled();
  });

  it('is not listed for anyone else', async () => {
    await openMenu(false);
    expect(screen.queryByText('Identity providers')).toBeNull();
  });
});

describe('UserMenu: who is signed in since when', () => {
  it("shows the sign-in time on the user's own clock (the user settings' time zone), named", async () => {
    storage.accessToken.set('tok');
    storage.utcDiff.set(480);
    // 06:05 UTC: 14:05 at UTC+8, whatever zone the browser is in
    await openMenu(false, actions(), Date.UTC(2026, 10, 24, 6, 5));
    expect(screen.getByText('Signed in Nov 24, 2026, 2:05 PM UTC+8')).toBeInTheDocument();
  });
});
