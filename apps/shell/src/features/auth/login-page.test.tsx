import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { apiPaths, codes } from '@campus/contracts';
import { i18n } from '../../lib/i18n.ts';
import { http, registerNotifier, type Transport } from '../../lib/request.ts';
import * as storage from '../../lib/storage.ts';
import { resetMenus } from '../../lib/menus.ts';
import { peekSignOutNotice, setSignOutNotice } from '../../lib/sign-out-notice.ts';
import { leavePage } from '../../lib/leave-page.ts';
import LoginPage from './login-page.tsx';

vi.mock('../../lib/leave-page.ts', () => ({ leavePage: vi.fn() }));
import { RouterPageNavigation } from '../../lib/router-page-navigation.tsx';

interface Call {
  method: string;
  url: string;
  params: Record<string, unknown> | undefined;
  body: unknown;
}

let calls: Call[] = [];
let settings: Record<string, unknown> = { imgVerifyCode: false, openLdap: false, mjSystem: 0, systemName: 'Campus' };
let tenants = [{ code: '1001', name: 'Demo Campus' }];
let captchaDown = false;
let audioDown = false;
let loginRefusal: { code: number; msg: string; data: unknown } | null = null;
const messages: string[] = [];

const ok = (data: unknown) => ({ code: 0, msg: 'ok', data });

function fakeServer(): Transport {
  return async (config) => {
    const url = config.url;
    calls.push({ method: config.method, url, params: config.params as never, body: config.data ? JSON.parse(String(config.data)) : undefined });
    const reply = (data: unknown) => ({ data, status: 200 });
    switch (url) {
      case apiPaths.tenantSettings:
        return reply(ok(settings));
      case apiPaths.captchaImage:
        if (captchaDown) return reply({ code: 998, msg: 'unavailable', data: null });
        if ((config.params as { audio?: string }).audio === 'true') {
          if (audioDown) return reply({ code: 998, msg: 'unavailable', data: null });
          const { verifyKey } = config.params as { verifyKey: string };
          return reply(ok({ verifyKey, image: 'data:image/png;base64,BBBB', audio: `data:audio/wav;base64,${verifyKey}`, expiresIn: 120 }));
        }
        return reply(ok({ verifyKey: (config.params as { verifyKey: string }).verifyKey, image: 'data:image/png;base64,AAAA', expiresIn: 120 }));
      case apiPaths.tenantSearch:
        return reply(ok(tenants));
      case apiPaths.webLogin:
        if (loginRefusal) return reply(loginRefusal);
        return reply(ok({ loginInfo: { token: 'tok', tenantCode: JSON.parse(String(config.data)).user.tenantCode } }));
      case apiPaths.userSettings:
        return reply(ok({ language: 'en-US', timeZone: { utcDiff: 8 } }));
      case apiPaths.licencePermission:
        return reply(ok({ isNormal: true }));
      case apiPaths.menus:
        return reply(
          ok({
            menuBaseList: [{ id: 'qy', appNo: 'qy', appId: 'qy', frontRoutingAddr: 'qy', label: 'QY', sortNum: 1 }],
            menuList: [{ id: 'p', path: '/qy/homePage', name: 'home', title: 'Home', sortNum: 1, isFuncRight: false, funcRightPerms: [], meta: { appNo: 'qy', parentId: null, isSide: true } }],
          }),
        );
      case apiPaths.permissions:
        return reply(ok([{ appCode: 'qy', ids: [] }]));
      default:
        return reply({ code: 141, msg: 'not found', data: null });
    }
  };
}

function renderLogin(initial = '/login') {
  const router = createMemoryRouter(
    [
      {
        Component: RouterPageNavigation,
        children: [
          { path: '/login', element: <LoginPage /> },
          { path: '/home', element: <p>home page</p> },
        ],
      },
    ],
    { initialEntries: [initial] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

beforeEach(async () => {
  calls = [];
  messages.length = 0;
  settings = { imgVerifyCode: false, openLdap: false, mjSystem: 0, systemName: 'Campus' };
  tenants = [{ code: '1001', name: 'Demo Campus' }];
  captchaDown = false;
  audioDown = false;
  loginRefusal = null;
  vi.mocked(leavePage).mockReset();
  http.transport = fakeServer();
  registerNotifier({ error: (text) => messages.push(text) });
  resetMenus();
  await i18n.changeLanguage('zh-CN');
});

afterEach(() => {
  localStorage.clear();
});

describe('LoginPage', () => {
  it('offers "Sign in with …" for each identity provider of the tenant: the browser leaves for the server\'s Start', async () => {
    await i18n.changeLanguage('en-US');
    settings = {
      ...settings,
      code: '1001',
      identityProviders: [
        { id: 'idp-1', kind: 'oidc', name: 'Campus ID' },
        { id: 'idp-2', kind: 'cas', name: 'Library CAS' },
      ],
    };
    renderLogin(`/login?fromPath=${encodeURIComponent('/qy/operate-log')}`);
    const group = await screen.findByRole('group', { name: 'Other ways to sign in' });
    const campusId = screen.getByRole('button', { name: 'Sign in with Campus ID' });
    expect(group).toContainElement(campusId);
    expect(screen.getByRole('button', { name: 'Sign in with Library CAS' })).toBeInTheDocument();
    // the password form stays as it was
    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();

    // reached with the keyboard, pressed with Enter
    campusId.focus();
    await userEvent.keyboard('{Enter}');
    expect(leavePage).toHaveBeenCalledTimes(1);
    const target = new URL(vi.mocked(leavePage).mock.calls[0]![0], 'http://shell.test');
    expect(target.pathname).toBe(apiPaths.ssoStart);
    expect(Object.fromEntries(target.searchParams)).toEqual({ providerId: 'idp-1', tenantCode: '1001', fromPath: '/qy/operate-log', lang: 'en-US' });
    // while the browser leaves, the button says so and a second press does nothing
    expect(campusId).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('status')).toHaveTextContent('Opening the sign-in of Campus ID…');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in with Library CAS' }));
    expect(leavePage).toHaveBeenCalledTimes(1);
    expect(calls.some((call) => call.url === apiPaths.webLogin)).toBe(false);
  });

  it('leaves a fromPath of another origin out of the provider sign-in (zh-CN names)', async () => {
    settings = { ...settings, code: '1001', identityProviders: [{ id: 'idp-1', kind: 'cas', name: '统一身份认证' }] };
    renderLogin(`/login?fromPath=${encodeURIComponent('//evil.example/x')}`);
    await userEvent.click(await screen.findByRole('button', { name: '使用 统一身份认证 登录' }));
    const target = new URL(vi.mocked(leavePage).mock.calls[0]![0], 'http://shell.test');
    expect(Object.fromEntries(target.searchParams)).toEqual({ providerId: 'idp-1', tenantCode: '1001', lang: 'zh-CN' });
  });

  it('shows no provider buttons when the tenant has none', async () => {
    settings = { ...settings, code: '1001', identityProviders: [] };
    renderLogin();
    await waitFor(() => expect(calls.some((call) => call.url === apiPaths.tenantSettings)).toBe(true));
    expect(screen.queryByRole('group')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^使用/ })).not.toBeInTheDocument();
  });

  it('focuses the username and requires username and password (zh-CN messages)', async () => {
    renderLogin();
    expect(screen.getByRole('heading', { name: '登录' })).toBeInTheDocument();
    expect(screen.getByLabelText('用户名')).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    expect(await screen.findByText('用户名不能为空')).toBeInTheDocument();
    expect(screen.getByText('密码不能为空')).toBeInTheDocument();
    expect(screen.queryByText('验证码不能为空')).not.toBeInTheDocument();
    expect(screen.getByLabelText('用户名')).toHaveAttribute('aria-invalid', 'true');
    expect(calls.some((call) => call.url === apiPaths.tenantSearch)).toBe(false);
  });

  it('says once why the last session ended (his own card reported lost; issue 25, item 18)', async () => {
    setSignOutNotice('cardManagement.ownCardSessionEnded.loss');
    renderLogin();
    expect(screen.getByRole('alert')).toHaveTextContent('您自己的管理员登录卡已挂失，因此您的登录已结束。请用密码重新登录。');
    await waitFor(() => expect(peekSignOutNotice()).toBeNull());
  });

  it('a refused sign-in says why once, on the page beside the field to correct, with nothing popping up besides', async () => {
    await i18n.changeLanguage('en-US');
    loginRefusal = { code: codes.accountOrPasswordWrong, msg: 'Wrong account or password', data: { captchaRequired: false, remainingAttempts: 4 } };
    renderLogin();
    await userEvent.type(screen.getByLabelText('Username'), 'staff');
    await userEvent.type(screen.getByLabelText('Password'), 'not-it');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findAllByText('Wrong account or password')).toHaveLength(1);
    await waitFor(() => expect(screen.getByLabelText('Password')).toHaveFocus());
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Wrong account or password');
    expect(messages).not.toContain('Wrong account or password');
  });

  it('shows the English messages in en-US', async () => {
    await i18n.changeLanguage('en-US');
    renderLogin();
    await userEvent.type(screen.getByLabelText('Username'), 'staff');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Password cannot be empty')).toBeInTheDocument();
    expect(screen.queryByText('Username cannot be empty')).not.toBeInTheDocument();
  });

  it('shows the image code when the tenant settings ask, requires it and refreshes it on click', async () => {
    settings = { ...settings, imgVerifyCode: true };
    renderLogin();
    const refresh = await screen.findByRole('button', { name: '换一张图片' });
    await waitFor(() => expect(calls.filter((call) => call.url === apiPaths.captchaImage)).toHaveLength(1));
    await userEvent.type(screen.getByLabelText('用户名'), 'staff');
    await userEvent.type(screen.getByLabelText('密码'), 'pw');
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    expect(await screen.findByText('验证码不能为空')).toBeInTheDocument();
    await userEvent.click(refresh);
    await waitFor(() => expect(calls.filter((call) => call.url === apiPaths.captchaImage)).toHaveLength(2));
    const keys = calls.filter((call) => call.url === apiPaths.captchaImage).map((call) => call.params?.verifyKey);
    expect(keys[0]).not.toBe(keys[1]);
  });

  it('the image code button is named by what it shows: the text while there is no image, the refresh text on the image', async () => {
    settings = { ...settings, imgVerifyCode: true };
    captchaDown = true;
    renderLogin();
    const retry = await screen.findByRole('button', { name: '点击加载' });
    expect(retry).toHaveTextContent('点击加载');
    expect(retry).toHaveAttribute('title', '换一张图片');
    captchaDown = false;
    await userEvent.click(retry);
    const image = await screen.findByRole('img', { name: '换一张图片' });
    expect(screen.getByRole('button', { name: '换一张图片' })).toContainElement(image);
  });

  it('"Hear the code" asks for a new code said aloud: the player plays it, the image shows the same code; a failure says so and keeps the image', async () => {
    settings = { ...settings, imgVerifyCode: true };
    const played: string[] = [];
    const play = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      played.push(this.src);
      return Promise.resolve();
    };
    try {
      renderLogin();
      await screen.findByRole('img', { name: '换一张图片' });
      audioDown = true;
      await userEvent.click(screen.getByRole('button', { name: '收听验证码' }));
      expect(await screen.findByRole('alert')).toHaveTextContent('验证码语音未能加载，请重试。');
      expect(screen.getByRole('img', { name: '换一张图片' })).toHaveAttribute('src', 'data:image/png;base64,AAAA');
      audioDown = false;
      await userEvent.click(screen.getByRole('button', { name: '收听验证码' }));
      const player = await screen.findByLabelText('验证码语音');
      const spokenKey = calls.filter((call) => call.url === apiPaths.captchaImage).at(-1)?.params?.verifyKey;
      expect(player).toHaveAttribute('src', `data:audio/wav;base64,${String(spokenKey)}`);
      await waitFor(() => expect(played).toEqual([`data:audio/wav;base64,${String(spokenKey)}`]));
      expect(screen.getByRole('img', { name: '换一张图片' })).toHaveAttribute('src', 'data:image/png;base64,BBBB');
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      // a new image is a new code: the recording of the old one goes
      await userEvent.click(screen.getByRole('button', { name: '换一张图片' }));
      await waitFor(() => expect(screen.queryByLabelText('验证码语音')).not.toBeInTheDocument());
    } finally {
      HTMLMediaElement.prototype.play = play;
    }
  });

  it('shows the LDAP box only when LDAP is on', async () => {
    renderLogin();
    await waitFor(() => expect(calls.some((call) => call.url === apiPaths.tenantSettings)).toBe(true));
    expect(screen.queryByLabelText('LDAP 登录')).not.toBeInTheDocument();
    settings = { ...settings, openLdap: true };
    localStorage.clear();
    renderLogin();
    expect(await screen.findByLabelText('LDAP 登录')).toBeInTheDocument();
  });

  it('signs in with the SHA-256 digest and the single tenant, then opens /home with the target', async () => {
    const router = renderLogin('/login?fromPath=%2Fqy%2FhomePage%3Fx%3D1');
    await userEvent.type(screen.getByLabelText('用户名'), 'staff');
    await userEvent.type(screen.getByLabelText('密码'), 'abc{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    expect(router.state.location.search).toBe('?toPath=%2Fqy%2FhomePage%3Fx%3D1');
    const login = calls.find((call) => call.url === apiPaths.webLogin)!;
    expect(login.body).toEqual({ user: { account: 'staff', password: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad', tenantCode: '1001' } });
    expect(storage.accessToken.get()).toBe('tok');
    expect(storage.loginFlag.get()).toBe(true);
    expect(storage.language.get()).toBe('en-US');
  });

  it('asks for the tenant when several match, with the first preselected', async () => {
    tenants = [
      { code: '1001', name: 'Demo Campus' },
      { code: '1002', name: 'Branch Campus' },
    ];
    const router = renderLogin();
    await userEvent.type(screen.getByLabelText('用户名'), 'multi');
    await userEvent.type(screen.getByLabelText('密码'), 'abc');
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    const dialog = await screen.findByRole('dialog', { name: '选择租户' });
    expect(dialog).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Demo Campus' })).toBeChecked();
    await userEvent.click(screen.getByRole('radio', { name: 'Branch Campus' }));
    await userEvent.click(screen.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    expect((calls.find((call) => call.url === apiPaths.webLogin)!.body as { user: { tenantCode: string } }).user.tenantCode).toBe('1002');
  });
});
