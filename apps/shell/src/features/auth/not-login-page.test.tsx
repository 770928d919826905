import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import { apiPaths, codes } from '@campus/contracts';
import { i18n } from '../../lib/i18n.ts';
import { registerCurrentPath, registerNavigate, resetRequestState } from '../../lib/request.ts';
import * as storage from '../../lib/storage.ts';
import { resetMenus } from '../../lib/menus.ts';
import { installFakeApi, type FakeAnswer, type SeenCall } from '../../../test/fake-api.ts';
import NotLoginPage from './not-login-page.tsx';

function Shown() {
  const location = useLocation();
  return <p data-testid="at">{`${location.pathname}${location.search}`}</p>;
}

let exchange: (call: SeenCall) => FakeAnswer = () => ({ data: { token: 'session-1', tenantCode: '1001' } });
let seen: SeenCall[] = [];

function signedInApi() {
  return installFakeApi({
    [apiPaths.ssoExchangeTicket]: (call) => exchange(call),
    [apiPaths.userSettings]: () => ({ data: { language: 'en-US', timeZone: { utcDiff: 8 } } }),
    [apiPaths.licencePermission]: () => ({ data: { isNormal: true } }),
    [apiPaths.tenantSettings]: () => ({ data: null }),
    [apiPaths.menus]: () => ({
      data: {
        menuBaseList: [{ id: 'qy', appNo: 'qy', appId: 'qy', frontRoutingAddr: 'qy', label: 'QY', sortNum: 1 }],
        menuList: [{ id: 'p', path: '/qy/homePage', name: 'home', title: 'Home', sortNum: 1, isFuncRight: false, funcRightPerms: [], meta: { appNo: 'qy', parentId: null, isSide: true } }],
      },
    }),
    [apiPaths.permissions]: () => ({ data: [{ appCode: 'qy', ids: [] }] }),
  });
}

function land(query: string) {
  const router = createMemoryRouter(
    [
      { path: '/not-login', element: <NotLoginPage /> },
      { path: '*', element: <Shown /> },
    ],
    { initialEntries: [`/not-login?${query}`] },
  );
  registerNavigate((to) => router.navigate(to, { replace: true }));
  registerCurrentPath(() => router.state.location.pathname);
  render(<RouterProvider router={router} />);
  return router;
}

beforeEach(async () => {
  exchange = () => ({ data: { token: 'session-1', tenantCode: '1001' } });
  seen = signedInApi();
  resetMenus();
  resetRequestState();
  await i18n.changeLanguage('en-US');
});

afterEach(() => {
  localStorage.clear();
});

describe('/not-login trades its one-time ticket for the session (issue 49)', () => {
  it('exchanges the ticket once, stores the session it answers and signs in as login type 4 (the third-party flag)', async () => {
    land(`token=ticket-1&tenantCode=1001&code=0&fromPath=${encodeURIComponent('/qy/homePage')}`);
    expect(await screen.findByTestId('at')).toHaveTextContent(`/home?toPath=${encodeURIComponent('/qy/homePage')}`);
    const exchanges = seen.filter((call) => call.url === apiPaths.ssoExchangeTicket);
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]!.method).toBe('POST');
    expect(exchanges[0]!.body).toEqual({ ticket: 'ticket-1', tenantCode: '1001' });
    // the session is the exchange's answer, never the ticket
    expect(storage.accessToken.get()).toBe('session-1');
    expect(storage.thirdPartyLoginFlag.get()).toBe(true);
  });

  it('a refused ticket ends on /error with the server\'s message, no session kept', async () => {
    exchange = () => ({ status: 401, body: { code: codes.ssoLoginTicketInvalid, msg: 'This sign-in link has expired or was already used, please sign in again', data: null } });
    land('token=used&tenantCode=1001&code=0');
    expect(await screen.findByTestId('at')).toHaveTextContent(`/error?msg=${encodeURIComponent('This sign-in link has expired or was already used, please sign in again')}`);
    expect(storage.accessToken.get()).toBeNull();
  });

  it('no answer at all ends on /error saying the sign-in failed', async () => {
    exchange = () => ({ status: 502 });
    land('token=t&tenantCode=1001&code=0');
    expect(await screen.findByTestId('at')).toHaveTextContent(`/error?msg=${encodeURIComponent('Sign-in failed')}`);
  });

  it('a code that is not a success goes to /error with msg and exchanges nothing', async () => {
    land(`code=${codes.ssoAccountUnknown}&msg=${encodeURIComponent('no account here')}`);
    expect(await screen.findByTestId('at')).toHaveTextContent(`/error?msg=${encodeURIComponent('no account here')}`);
    expect(seen.some((call) => call.url === apiPaths.ssoExchangeTicket)).toBe(false);
  });

  it('a fromPath of another origin is dropped: the sign-in goes home', async () => {
    land(`token=t&tenantCode=1001&code=0&fromPath=${encodeURIComponent('//evil.example/x')}`);
    const at = await screen.findByTestId('at');
    expect(at.textContent).toMatch(/^\/home\?toPath=/);
    expect(at.textContent).not.toContain('evil');
  });
});
