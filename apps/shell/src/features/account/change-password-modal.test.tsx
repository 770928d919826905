import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { message } from 'antd';
import { sm2 } from 'sm-crypto-v2';
import type { ChangePasswordRequest } from '@campus/contracts';
import { apiPaths, cardIssuerPaths, codes, shellVersion } from '@campus/contracts';
import { forgetPairing, setIssuerFetch } from '../../lib/cards/card-issuer.ts';
import { i18n } from '../../lib/i18n.ts';
import { http, registerNotifier, type Transport } from '../../lib/request.ts';
import * as storage from '../../lib/storage.ts';
import { ChangePasswordModal } from './change-password-modal.tsx';
import { renderShell } from '../../../test/render-shell.tsx';


interface Call {
  method: string;
  url: string;
  body: unknown;
}

const keys = sm2.generateKeyPairHex();
const policySource = '^(?=.*\\d)(?=.*[A-Za-z])(?!\\s)(?!.*\\s$).{8,20}$';
const tip = 'Use 8 to 20 characters with at least one digit and one letter';

let calls: Call[] = [];
let changeReply: { code: number; msg: string; data: unknown } = { code: 0, msg: 'ok', data: null };
const toasts: string[] = [];

async function hexSha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function fakeServer(): Transport {
  return async (config) => {
    const url = config.url;
    calls.push({ method: config.method, url, body: config.data ? JSON.parse(String(config.data)) : undefined });
    const reply = (data: unknown) => ({ data, status: 200 });
    switch (url) {
      case apiPaths.passwordComplexity:
        return reply({ code: 0, msg: 'ok', data: { regex: btoa(policySource), tip, sealKey: keys.publicKey } });
      case apiPaths.changePassword:
        return reply(changeReply);
      case apiPaths.logout:
        return reply({ code: 0, msg: 'ok', data: null });
      case apiPaths.userDetail:
        return reply({ code: 0, msg: 'ok', data: { id: 'u1', code: 'sysadmin', name: 'System administrator', loginType: 3, cardId: 'card-7' } });
      case apiPaths.verifyGmPassword:
        return reply({ code: 0, msg: 'ok', data: null });
      case apiPaths.changeGmPassword: {
        const body = JSON.parse(String(config.data)) as { prepareId?: string };
        return reply({ code: 0, msg: 'ok', data: body.prepareId ? null : { prepareId: 'P9', fixedNo: 'DE000003', image: '4353bb', alreadyWritten: false } });
      }
      default:
        return reply({ code: 141, msg: 'not found', data: null });
    }
  };
}

function renderModal(props: { forced?: boolean; notice?: string | null; open?: boolean } = {}) {
  const onClose = vi.fn();
  const view = renderShell(<ChangePasswordModal open={props.open ?? true} forced={props.forced ?? false} notice={props.notice ?? null} onClose={onClose} />);
  return { onClose, router: view.router, view, queryClient: view.queryClient };
}

const original = () => screen.getByLabelText('Original Password');
const newPassword = () => screen.getByLabelText('New Password');
const confirm = () => screen.getByLabelText('Confirm Password');
// by text, not by role: role queries walk every style antd injects and are slow in jsdom
const button = (name: string) => screen.getByText(name, { selector: 'button, button *' }).closest('button')!;
const okButton = () => button('OK');

async function policyLoaded() {
  await waitFor(() => expect(okButton()).toBeEnabled());
}

beforeEach(async () => {
  calls = [];
  toasts.length = 0;
  changeReply = { code: 0, msg: 'ok', data: null };
  http.transport = fakeServer();
  registerNotifier({ error: (text) => toasts.push(text) });
  storage.accessToken.set('tok');
  storage.tenantCode.set('1001');
  storage.loginFlag.set(true);
  await i18n.changeLanguage('en-US');
});

afterEach(async () => {
  localStorage.clear();
  // the success message is antd's static one, in a React root of its own that cleanup() does not
  // unmount: close it and wait until it has left, or its animation runs after jsdom is gone
  message.destroy();
  await waitFor(() => expect(document.querySelector('.ant-message-notice')).toBeNull());
  await new Promise((resolve) => setTimeout(resolve, 0));
});

describe('ChangePasswordModal: fields and rules', () => {
  it('has a titled dialog with three labelled password fields and their autocomplete hints', async () => {
    renderModal();
    expect(screen.getByRole('dialog', { name: 'Change Password' })).toBeInTheDocument();
    expect(original()).toHaveAttribute('type', 'password');
    expect(original()).toHaveAttribute('autocomplete', 'current-password');
    expect(newPassword()).toHaveAttribute('autocomplete', 'new-password');
    expect(confirm()).toHaveAttribute('autocomplete', 'new-password');
    await policyLoaded();
    // the policy tip is the new password's help text
    expect(screen.getByText(tip)).toBeInTheDocument();
  });

  it('requires the original password when it loses focus, not before', async () => {
    renderModal();
    await userEvent.click(original());
    expect(screen.queryByText('Please input Original Password')).not.toBeInTheDocument();
    await userEvent.tab();
    expect(await screen.findByText('Please input Original Password')).toBeInTheDocument();
    await userEvent.type(original(), 'x');
    await userEvent.tab();
    await waitFor(() => expect(screen.queryByText('Please input Original Password')).not.toBeInTheDocument());
  });

  it('checks the new password against the server regex and shows the server tip', async () => {
    renderModal();
    await policyLoaded();
    await userEvent.type(newPassword(), 'abcdefgh');
    await waitFor(() => expect(newPassword()).toHaveAttribute('aria-invalid', 'true'));
    // the tip is shown as the field's error, and not a second time as help text (the original password, which had
    // the focus when the dialog opened, says it is required)
    await waitFor(() => expect(newPassword().closest('.ant-form-item')?.querySelector('.ant-form-item-explain-error')).toHaveTextContent(tip));
    expect(document.querySelector('.ant-form-item-extra')).toBeNull();
    await userEvent.type(newPassword(), '1');
    await waitFor(() => expect(newPassword()).not.toHaveAttribute('aria-invalid', 'true'));
    // valid again: the tip returns as help text
    await waitFor(() => expect(document.querySelector('.ant-form-item-extra')).toHaveTextContent(tip));
    await userEvent.clear(newPassword());
    expect(await screen.findByText('Please input New Password')).toBeInTheDocument();
  });

  it('requires the confirm and that it match', async () => {
    renderModal();
    await policyLoaded();
    await userEvent.type(newPassword(), 'abc12345');
    await userEvent.type(confirm(), 'abc1234');
    expect(await screen.findByText('The New Password is inconsistent with the Confirmed Password!')).toBeInTheDocument();
    await userEvent.clear(confirm());
    expect(await screen.findByText('Please input New Password again')).toBeInTheDocument();
    await userEvent.type(confirm(), 'abc12345');
    await waitFor(() => expect(confirm()).not.toHaveAttribute('aria-invalid', 'true'));
  });

  it('re-checks a typed confirm when the new password becomes valid', async () => {
    renderModal();
    await policyLoaded();
    await userEvent.type(newPassword(), 'abc1234');
    await userEvent.type(confirm(), 'abc12345');
    expect(await screen.findByText('The New Password is inconsistent with the Confirmed Password!')).toBeInTheDocument();
    await userEvent.type(newPassword(), '5');
    await waitFor(() => expect(screen.queryByText('The New Password is inconsistent with the Confirmed Password!')).not.toBeInTheDocument());
    expect(confirm()).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('submitting empty shows every message and sends nothing', async () => {
    renderModal();
    await policyLoaded();
    await userEvent.click(okButton());
    expect(await screen.findByText('Please input Original Password')).toBeInTheDocument();
    expect(screen.getByText('Please input New Password')).toBeInTheDocument();
    expect(screen.getByText('Please input New Password again')).toBeInTheDocument();
    expect(calls.some((call) => call.url === apiPaths.changePassword)).toBe(false);
  });

  it('speaks the user language (zh-MO)', async () => {
    await i18n.changeLanguage('zh-MO');
    renderModal();
    expect(screen.getByRole('dialog', { name: '修改密碼' })).toBeInTheDocument();
    expect(screen.getByLabelText('原密碼')).toBeInTheDocument();
    expect(screen.getByLabelText('新密碼')).toBeInTheDocument();
    expect(screen.getByLabelText('確認密碼')).toBeInTheDocument();
  });
});

describe('ChangePasswordModal: closing', () => {
  it('not forced: Cancel resets the form and closes', async () => {
    const { onClose } = renderModal();
    await userEvent.type(original(), 'old-one');
    await userEvent.click(button('Cancel'));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(original()).toHaveValue('');
  });

  it('not forced: a click on the mask closes', async () => {
    const { onClose } = renderModal();
    await userEvent.click(document.querySelector('.ant-modal-wrap')!);
    expect(onClose).toHaveBeenCalled();
  });

  it('not forced: Esc closes', async () => {
    const { onClose } = renderModal();
    await userEvent.click(original());
    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalled();
  });

  it('forced: no close icon, no Cancel, Esc does nothing; the notice is shown and Quit logs out', async () => {
    const { onClose, router } = renderModal({ forced: true, notice: 'Please change the initial password' });
    const dialog = screen.getByRole('dialog', { name: 'Change Password' });
    expect(within(dialog).getByText('Please change the initial password')).toBeInTheDocument();
    expect(screen.queryByText('Cancel')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /close/i })).not.toBeInTheDocument();
    await userEvent.click(original());
    await userEvent.keyboard('{Escape}');
    // a click on the mask (the wrapper around the dialog) does nothing either
    await userEvent.click(document.querySelector('.ant-modal-wrap')!);
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Change Password' })).toBeVisible();
    await userEvent.click(button('Quit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(calls.some((call) => call.url === apiPaths.logout)).toBe(true);
    expect(storage.accessToken.get()).toBeNull();
    expect(onClose).toHaveBeenCalled();
  });
});

describe('ChangePasswordModal: sending', () => {
  async function fillIn(values = { original: 'Old#2026', next: 'New#2026x', confirm: 'New#2026x' }) {
    await policyLoaded();
    for (const [field, value] of [
      [original(), values.original],
      [newPassword(), values.next],
      [confirm(), values.confirm],
    ] as const) {
      await userEvent.click(field);
      await userEvent.paste(value);
    }
  }

  it('sends both digests and the sealed new password, then logs out and opens /login', async () => {
    const { router, onClose } = renderModal();
    await fillIn();
    await userEvent.click(okButton());
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    const change = calls.find((call) => call.url === apiPaths.changePassword)!;
    expect(change.method).toBe('post');
    const body = change.body as ChangePasswordRequest;
    expect(Object.keys(body).sort()).toEqual(['oprtNewPwd', 'oprtPwd', 'sealedNewPwd']);
    expect(body.oprtPwd).toBe(await hexSha256('Old#2026'));
    expect(body.oprtNewPwd).toBe(await hexSha256('New#2026x'));
    expect(sm2.doDecrypt(body.sealedNewPwd, keys.privateKey, 1)).toBe('New#2026x');
    // then the logout call, and the session is gone
    expect(calls.findIndex((call) => call.url === apiPaths.logout)).toBeGreaterThan(calls.indexOf(change));
    expect(storage.accessToken.get()).toBeNull();
    expect(onClose).toHaveBeenCalled();
    expect(await screen.findByText('Password changed, please sign in again')).toBeInTheDocument();
  });

  it('a card-login administrator changes it through the reader: the card is rewritten, "password changed", then sign-out', async () => {
    storage.cardLoginFlag.set(true);
    const issuerPaths: string[] = [];
    forgetPairing();
    setIssuerFetch(async (input) => {
      const path = new URL(String(input)).pathname;
      issuerPaths.push(path);
      const data = path === cardIssuerPaths.checkOprtLoginCardCanChangePwd ? { fixedNo: 'DE000003' } : path === cardIssuerPaths.addIdentity ? { issuerVersion: shellVersion } : null;
      return new Response(JSON.stringify({ code: 0, msg: 'ok', data }));
    });
    const { router } = renderModal();
    await fillIn();
    await userEvent.click(okButton());
    // by text, not by role (see above): the reader dialog closes 1 s after its success
    expect(await screen.findByText('Change the password on the login card')).toBeInTheDocument();
    expect(await screen.findByText('password changed')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(calls.some((call) => call.url === apiPaths.changePassword)).toBe(false);
    const prepare = calls.find((call) => call.url === apiPaths.changeGmPassword)!.body as Record<string, unknown>;
    expect(prepare).toMatchObject({ id: 'card-7', kindNum: 11, fixedNo: 'DE000003', oprtPwd: await hexSha256('New#2026x') });
    expect(calls.filter((call) => call.url === apiPaths.changeGmPassword).at(-1)?.body).toEqual({ prepareId: 'P9', isSuccess: true });
    expect(issuerPaths).toContain(cardIssuerPaths.changePwdOprtLoginCard);
    expect(calls.some((call) => call.url === apiPaths.logout)).toBe(true);
  });

  it('Enter in a field submits', async () => {
    const { router } = renderModal({ forced: true });
    await fillIn();
    await userEvent.type(confirm(), '{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(calls.filter((call) => call.url === apiPaths.changePassword)).toHaveLength(1);
  });

  it('shows loading on OK and disables the fields while sending', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const server = fakeServer();
    http.transport = async (config) => {
      if (config.url === apiPaths.changePassword) await gate;
      return server(config);
    };
    const { router } = renderModal();
    await fillIn();
    await userEvent.click(okButton());
    await waitFor(() => expect(original()).toBeDisabled());
    expect(newPassword()).toBeDisabled();
    expect(confirm()).toBeDisabled();
    await waitFor(() => expect(okButton()).toHaveClass('ant-btn-loading'));
    expect(button('Cancel')).toBeDisabled();
    await act(async () => release());
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('a wrong original password (153) stays in the dialog, on that field, and only clears it', async () => {
    changeReply = { code: codes.oldPasswordWrong, msg: 'The original password is wrong', data: null };
    const { router, onClose } = renderModal();
    await fillIn();
    await userEvent.click(okButton());
    const dialog = screen.getByRole('dialog', { name: 'Change Password' });
    expect(await within(dialog).findByText('The original password is wrong')).toBeInTheDocument();
    expect(toasts).toEqual(['The original password is wrong']);
    await waitFor(() => expect(original()).toBeEnabled());
    expect(original()).toHaveValue('');
    expect(original()).toHaveAttribute('aria-invalid', 'true');
    expect(newPassword()).toHaveValue('New#2026x');
    expect(confirm()).toHaveValue('New#2026x');
    expect(router.state.location.pathname).toBe('/home');
    expect(onClose).not.toHaveBeenCalled();
    expect(storage.accessToken.get()).toBe('tok');
    // retyping it and sending again works
    changeReply = { code: 0, msg: 'ok', data: null };
    await userEvent.type(original(), 'Old#2026{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it.each([
    ['the policy (151)', codes.passwordPolicy, 'The new password does not meet the password policy'],
    ['a reused password (152)', codes.passwordReused, 'The new password must differ from the current one'],
  ])('a refusal of %s shows on the new password and clears new and confirm only', async (_name, code, msg) => {
    changeReply = { code, msg, data: null };
    const { router } = renderModal();
    await fillIn();
    await userEvent.click(okButton());
    const dialog = screen.getByRole('dialog', { name: 'Change Password' });
    expect(await within(dialog).findByText(msg)).toBeInTheDocument();
    await waitFor(() => expect(newPassword()).toBeEnabled());
    expect(newPassword()).toHaveValue('');
    expect(newPassword()).toHaveAttribute('aria-invalid', 'true');
    expect(confirm()).toHaveValue('');
    expect(original()).toHaveValue('Old#2026');
    expect(router.state.location.pathname).toBe('/home');
  });

  it('a network failure says so in the dialog and keeps everything typed', async () => {
    const server = fakeServer();
    http.transport = async (config) => {
      if (config.url === apiPaths.changePassword) throw new TypeError('Failed to fetch');
      return server(config);
    };
    const { router } = renderModal();
    await fillIn();
    await userEvent.click(okButton());
    expect(await screen.findByText('The password could not be changed, please check the network and try again')).toBeInTheDocument();
    expect(original()).toHaveValue('Old#2026');
    expect(newPassword()).toHaveValue('New#2026x');
    expect(confirm()).toHaveValue('New#2026x');
    expect(router.state.location.pathname).toBe('/home');
  });
});
