import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, useQuery } from '@tanstack/react-query';
import type { UserInfo } from '@campus/contracts';
import { apiPaths } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import { i18n } from '../../lib/i18n.ts';
import { apiGet, http, registerNotifier, type Transport } from '../../lib/request.ts';
import * as storage from '../../lib/storage.ts';
import { openChangePassword, useChangePasswordDialog } from './change-password-state.ts';
import AccountDialogs, { resetForcedChangeCheck } from './account-dialogs.tsx';
import { renderShell } from '../../../test/render-shell.tsx';


const lockingTime = Date.UTC(2026, 0, 1, 4); // January 1 in every time zone from UTC-4 to UTC+14

let user: Partial<UserInfo> = {};
let urls: string[] = [];

function fakeServer(): Transport {
  return async (config) => {
    const url = config.url;
    urls.push(url);
    const reply = (data: unknown) => ({ data: { code: 0, msg: 'ok', data }, status: 200 });
    switch (url) {
      case apiPaths.userDetail:
        return reply({ id: 'u1', code: 'staff', name: 'Staff', isFirstLogin: false, loginTime: 0, oprtPwdEditReason: null, lockingTime: null, ...user });
      case apiPaths.passwordComplexity:
        return reply({ regex: btoa('^.{8,20}$'), tip: '8 to 20 characters', sealKey: '04' + 'ab'.repeat(64) });
      default:
        return reply(null);
    }
  };
}

/** Stands in for the main layout, which asks for the same user info. */
function LayoutUser() {
  const { i18n: instance } = useTranslation();
  const query = useQuery({ queryKey: ['user-detail', instance.language], queryFn: () => apiGet<UserInfo>(apiPaths.userDetail), retry: false });
  return <p>{query.data?.name ?? 'loading user'}</p>;
}

function renderDialogs(queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 } } })) {
  return renderShell(
    <>
      <LayoutUser />
      <AccountDialogs />
    </>,
    queryClient,
  );
}

const dialogTitle = () => screen.queryByText('Change Password', { selector: '.ant-modal-title' });
const hasText = (text: string) => screen.queryByText(text) !== null;

async function userLoaded() {
  expect(await screen.findByText('Staff')).toBeInTheDocument();
  // the check runs in an effect after the user arrives
  await act(async () => {});
}

beforeEach(async () => {
  user = {};
  urls = [];
  http.transport = fakeServer();
  registerNotifier({ error: () => {} });
  storage.accessToken.set('tok-1');
  storage.tenantCode.set('1001');
  storage.utcDiff.set(480); // the user's time zone from the user settings
  resetForcedChangeCheck();
  useChangePasswordDialog.setState({ open: null });
  await i18n.changeLanguage('en-US');
});

afterEach(() => {
  localStorage.clear();
});

describe('AccountDialogs: the forced-change check after sign-in (reading A)', () => {
  it('no reason: no dialog, and the user info is fetched once for the layout and the check', async () => {
    renderDialogs();
    await userLoaded();
    expect(dialogTitle()).toBeNull();
    expect(urls.filter((url) => url === apiPaths.userDetail)).toHaveLength(1);
  });

  it('reason 0: forced, with the first sign-in notice and no Cancel', async () => {
    user = { oprtPwdEditReason: 0 };
    renderDialogs();
    await waitFor(() => expect(dialogTitle()).not.toBeNull());
    expect(hasText('This is your first sign-in: please change the initial password before you continue')).toBe(true);
    expect(useChangePasswordDialog.getState().open?.forced).toBe(true);
    expect(hasText('Cancel')).toBe(false);
    expect(hasText('Quit')).toBe(true);
    expect(urls.filter((url) => url === apiPaths.userDetail)).toHaveLength(1);
  });

  it('a call the server refuses for the forced change (191) opens the forced dialog without a message; the user info then names the expiry', async () => {
    const messages: string[] = [];
    registerNotifier({ error: (text) => messages.push(text) });
    user = { oprtPwdEditReason: 2, lockingTime };
    const server = fakeServer();
    let releaseUser: () => void = () => {};
    const userHeld = new Promise<void>((resolve) => (releaseUser = resolve));
    http.transport = async (call) => {
      if (call.url === '/qy/api/Home/GetFigures') return { data: { code: 191, msg: 'Your password must be changed before you can go on', data: null }, status: 403 };
      // the user info comes after the page's own call was refused
      if (call.url === apiPaths.userDetail) await userHeld;
      return server(call);
    };
    renderDialogs();
    const page = apiGet('/qy/api/Home/GetFigures');
    let settled = false;
    void page.then(
      () => (settled = true),
      () => (settled = true),
    );
    await waitFor(() => expect(dialogTitle()).not.toBeNull());
    expect(hasText('Your password must be changed before you can go on')).toBe(true);
    expect(useChangePasswordDialog.getState().open?.forced).toBe(true);
    expect(hasText('Cancel')).toBe(false);
    releaseUser();
    await waitFor(() => expect(hasText('Your password expired on January 1, 2026 at 12:00 UTC+8: please change it before you continue')).toBe(true));
    expect(messages).toEqual([]);
    expect(settled).toBe(false);
  });

  it('reason 3: forced, with the administrator reset notice', async () => {
    user = { oprtPwdEditReason: 3 };
    renderDialogs();
    await waitFor(() => expect(dialogTitle()).not.toBeNull());
    expect(hasText('Your password was reset by an administrator: please change it before you continue')).toBe(true);
    expect(useChangePasswordDialog.getState().open?.forced).toBe(true);
  });

  it('reason 2 with a date: forced, expired on that date in the user language', async () => {
    user = { oprtPwdEditReason: 2, lockingTime };
    renderDialogs();
    await waitFor(() => expect(dialogTitle()).not.toBeNull());
    expect(hasText('Your password expired on January 1, 2026 at 12:00 UTC+8: please change it before you continue')).toBe(true);
    expect(useChangePasswordDialog.getState().open?.forced).toBe(true);
  });

  it('the expiry notice follows a language switch', async () => {
    user = { oprtPwdEditReason: 2, lockingTime };
    renderDialogs();
    await waitFor(() => expect(dialogTitle()).not.toBeNull());
    await act(async () => {
      await i18n.changeLanguage('zh-CN');
    });
    await waitFor(() => expect(useChangePasswordDialog.getState().open?.notice).toBe('您的密码已于 2026年1月1日 12:00 UTC+8 过期，请先修改密码再继续使用'));
    expect(useChangePasswordDialog.getState().open?.forced).toBe(true);
  });

  it.each([
    ['reason 1', { oprtPwdEditReason: 1 }],
    ['reason 2 without a date', { oprtPwdEditReason: 2, lockingTime: null }],
  ])('%s: not forced, "Please update your password immediately", Cancel closes for good', async (_name, info) => {
    user = info;
    const { view, queryClient } = renderDialogs();
    await waitFor(() => expect(dialogTitle()).not.toBeNull());
    expect(hasText('Please update your password immediately')).toBe(true);
    expect(useChangePasswordDialog.getState().open?.forced).toBe(false);
    await userEvent.click(screen.getByText('Cancel').closest('button')!);
    expect(useChangePasswordDialog.getState().open).toBeNull();
    // a remount in the same page load and sign-in does not ask again
    view.unmount();
    renderDialogs(queryClient);
    await userLoaded();
    expect(useChangePasswordDialog.getState().open).toBeNull();
  });

  it('a new sign-in in the same page load is checked again', async () => {
    user = { oprtPwdEditReason: 1 };
    const { view } = renderDialogs();
    await waitFor(() => expect(useChangePasswordDialog.getState().open).not.toBeNull());
    await userEvent.click(screen.getByText('Cancel').closest('button')!);
    view.unmount();
    storage.accessToken.set('tok-2');
    renderDialogs();
    await waitFor(() => expect(useChangePasswordDialog.getState().open).not.toBeNull());
  });

  it('third-party sign-in: no dialog', async () => {
    user = { oprtPwdEditReason: 0 };
    storage.thirdPartyLoginFlag.set(true);
    renderDialogs();
    await userLoaded();
    expect(useChangePasswordDialog.getState().open).toBeNull();
    expect(dialogTitle()).toBeNull();
  });

  it('abnormal licence: no dialog', async () => {
    user = { oprtPwdEditReason: 2, lockingTime };
    storage.licenceAbnormal.set(true);
    renderDialogs();
    await userLoaded();
    expect(useChangePasswordDialog.getState().open).toBeNull();
    expect(dialogTitle()).toBeNull();
  });
});

describe('AccountDialogs: bound to the store', () => {
  it('opens from the user menu (openChangePassword) without a notice, and Cancel closes it', async () => {
    renderDialogs();
    await userLoaded();
    act(() => openChangePassword());
    await waitFor(() => expect(dialogTitle()).not.toBeNull());
    expect(screen.getByLabelText('Original Password')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    await userEvent.click(screen.getByText('Cancel').closest('button')!);
    expect(useChangePasswordDialog.getState().open).toBeNull();
  });
});
