import { expect, test } from '@playwright/test';
import type { IdentityProviderView, SaveIdentityProviderRequest } from '@campus/contracts';
import { accessTokenStorageKey, apiPaths, codeMessage, codes } from '@campus/contracts';
import { startCasTestServer } from '../../apps/server/test/support/cas-test-server.ts';
import { portFor } from '../support/env.ts';
import { chooseUserMenuEntry, demo, signIn, switchLanguage, userMenu } from '../support/sign-in.ts';
import { administratorHeaders } from '../support/sso.ts';

// The shell's side of the external sign-in (issue 49) against the real server: the landing's refusals, the ticket
// kept out of the history, the login page's buttons, the tenant administrator's screen, and a round trip through the
// CAS stand-in of the server's tests, Quit included. Nothing here stands in for the server.

const identityProvidersEntry = /^(Identity providers|身份提供方|身分提供者)$/;
/** Where the CAS provider of these tests says its server is; nothing need answer there (no round trip here). */
const casServerUrl = `http://127.0.0.1:${portFor(7401)}/cas`;

test.describe('external sign-in in the shell (issue 49)', () => {
  test('a failure of the server\'s redirect ends on /error with its message, and nothing is exchanged', async ({ page }) => {
    const exchanges: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes(apiPaths.ssoExchangeTicket)) exchanges.push(request.url());
    });
    const message = codeMessage(codes.ssoAccountUnknown, 'en-US');
    await page.goto(`/not-login?code=${codes.ssoAccountUnknown}&msg=${encodeURIComponent(message)}`);
    await expect(page).toHaveURL(/\/error\?msg=/);
    await expect(page.getByTestId('error-message')).toHaveText(message);
    expect(exchanges).toEqual([]);
  });

  test('the ticket leaves the address bar and the history before the exchange has answered', async ({ page }) => {
    await page.goto('/tools');
    // the exchange is held (not answered here) while the address is looked at, then goes on to the server
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(`**${apiPaths.ssoExchangeTicket}`, async (route) => {
      await held;
      await route.continue();
    });
    const exchange = page.waitForRequest((request) => request.url().endsWith(apiPaths.ssoExchangeTicket));
    await page.goto('/not-login?token=e2e-ticket-in-the-address&tenantCode=1001&code=0');
    const sent = await exchange;
    await expect(page).toHaveURL(/\/not-login$/);
    expect(sent.method()).toBe('POST');
    expect(sent.postDataJSON()).toEqual({ ticket: 'e2e-ticket-in-the-address', tenantCode: '1001' });
    release();
    await expect(page).toHaveURL(/\/error/);
    expect(page.url()).not.toContain('e2e-ticket-in-the-address');
    // back through the history: the landing's entry is gone with its ticket
    await page.goBack();
    await expect(page).toHaveURL(/\/tools$/);
  });

  test('a made-up ticket is refused by the server\'s exchange: /error says the sign-in link is spent', async ({ page }) => {
    // passes only against the server's real ExchangeTicket route (its refusal, ssoLoginTicketInvalid, in en-US)
    await page.goto('/not-login?token=made-up-ticket&tenantCode=1001&code=0');
    await expect(page).toHaveURL(/\/error/);
    await expect(page.getByTestId('error-message')).toHaveText(codeMessage(codes.ssoLoginTicketInvalid, 'en-US'));
    // nothing of a session was kept
    expect(await page.evaluate((key) => localStorage.getItem(key), accessTokenStorageKey)).toBeNull();
  });

  test('the login page offers no provider while the tenant has none, and its form is as before', async ({ page, request }) => {
    const settings = (await (await request.get(apiPaths.tenantSettings)).json()) as { data: { identityProviders: unknown[] } };
    expect(settings.data.identityProviders).toEqual([]);
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('button', { name: /^Sign in with/ })).toHaveCount(0);
    await expect(page.getByRole('group', { name: 'Other ways to sign in' })).toHaveCount(0);
  });

  test('someone who is not a system administrator is not offered the identity providers', async ({ page }) => {
    await signIn(page, demo.staff);
    await userMenu(page).click();
    await expect(page.getByRole('menuitem', { name: /^(Quit|退出)$/ })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: identityProvidersEntry })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await page.goto('/identity-providers');
    await expect(page.getByText('Only a system administrator of the tenant keeps its identity providers.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add provider' })).toHaveCount(0);
  });

  test('a tenant\'s system administrator adds a CAS provider; the login page offers it and the browser leaves for Start', async ({ page, browser }) => {
    // the screen in Simplified Chinese: chosen here, since other tests of the worker may have stored another
    // language for the administrator (the seed's zh-CN is not a given by the time this runs)
    await signIn(page, demo.sysadmin);
    await switchLanguage(page, 'zh-CN');
    await chooseUserMenuEntry(page, identityProvidersEntry);
    await expect(page).toHaveURL(/\/identity-providers$/);
    await expect(page.getByRole('heading', { name: '身份提供方', level: 2 })).toBeVisible();
    await expect(page.getByText('尚无身份提供方')).toBeVisible();

    await page.getByRole('button', { name: '添加身份提供方' }).click();
    const dialog = page.getByRole('dialog', { name: '添加身份提供方' });
    await dialog.getByText('CAS', { exact: true }).click();
    await dialog.getByLabel('英文名称').fill('Library CAS');
    await dialog.getByLabel('简体中文名称').fill('图书馆统一认证');
    await dialog.getByLabel('繁体中文名称').fill('圖書館統一認證');
    await dialog.getByLabel('CAS 服务器地址').fill(casServerUrl);
    await dialog.getByRole('switch', { name: '启用' }).click();
    await dialog.getByRole('button', { name: '保存' }).click();
    // saved, the dialog goes on as the stored provider's: the address to register at the CAS server is shown, to copy
    const saved = page.getByRole('dialog', { name: '修改身份提供方' });
    await expect(saved.getByText(/已保存。请在身份提供方登记下面的地址/)).toBeVisible();
    await expect(saved.getByLabel('服务地址（Service）', { exact: true })).toHaveValue(/\/iot-login\/api\/v1\.0\/SSO\/CasCallback/);
    await expect(saved.getByRole('button', { name: /^复制/ })).toBeVisible();
    await saved.getByRole('button', { name: '完成' }).click();
    const row = page.getByRole('row', { name: /图书馆统一认证/ });
    await expect(row).toBeVisible();
    await expect(row.getByRole('switch')).toBeChecked();

    // a visitor of the login page (a browser of its own, in English) is offered it beside the password form
    const visitor = await browser.newPage();
    try {
      await visitor.goto(`/login?fromPath=${encodeURIComponent('/qy/homePage')}`);
      const button = visitor.getByRole('button', { name: 'Sign in with Library CAS' });
      await expect(button).toBeVisible();
      await expect(visitor.getByRole('button', { name: 'Log in' })).toBeVisible();
      // keyboard: from the Log in button, Tab reaches it
      await visitor.getByRole('button', { name: 'Log in' }).focus();
      await visitor.keyboard.press('Tab');
      await expect(button).toBeFocused();
      const start = visitor.waitForRequest((request) => request.url().includes(apiPaths.ssoStart));
      await visitor.keyboard.press('Enter');
      const started = new URL((await start).url());
      expect(started.searchParams.get('tenantCode')).toBe('1001');
      expect(started.searchParams.get('fromPath')).toBe('/qy/homePage');
      expect(started.searchParams.get('lang')).toBe('en-US');
      expect(started.searchParams.get('providerId')).toBeTruthy();
      expect((await start).isNavigationRequest()).toBe(true);
    } finally {
      await visitor.close();
    }

    // and deleted again, after a confirmation
    await row.getByRole('button', { name: /^删除/ }).click();
    const confirm = page.getByRole('dialog', { name: '删除身份提供方' });
    await confirm.getByRole('button', { name: '删除' }).click();
    await expect(page.getByText('已删除 图书馆统一认证。')).toBeVisible();
    await expect(page.getByText('尚无身份提供方')).toBeVisible();
  });

  test('a person signs in through CAS and lands in the layout as login type 4; Quit ends the CAS session too', async ({ page, request }) => {
    // the CAS 3.0 stand-in of the server's own tests (no CAS server installs here), on a port the system gives
    const cas = await startCasTestServer({ users: { 'staff.cas': { password: 'Cas#2026', attributes: { uid: demo.staff.account } } } });
    const headers = await administratorHeaders(request);
    const provider: SaveIdentityProviderRequest = {
      kind: 'cas',
      name: { 'en-US': 'Campus CAS', 'zh-CN': '校园 CAS', 'zh-MO': '校園 CAS' },
      enabled: true,
      cas: { serverUrl: cas.serverUrl, accountAttribute: 'uid' },
    };
    const saved = await request.post(apiPaths.identityProviderSave, { headers, data: provider });
    const { id } = ((await saved.json()) as { data: IdentityProviderView }).data;
    try {
      await page.goto(`/login?fromPath=${encodeURIComponent('/qy/homePage')}`);
      await page.getByRole('button', { name: 'Sign in with Campus CAS' }).click();
      // the CAS server's own login form
      await expect(page).toHaveURL(new RegExp(`^${cas.serverUrl}/login\\?service=`));
      await page.getByLabel('Username').fill('staff.cas');
      await page.getByLabel('Password').fill('Cas#2026');
      await page.getByRole('button', { name: 'Sign in' }).click();
      // back through the server's callback and the landing, into the layout where fromPath pointed
      await expect(userMenu(page)).toBeVisible();
      await expect(page).toHaveURL(/\/qy\/homePage$/);
      expect(cas.validations.map((validation) => validation.answer)).toEqual(['success']);
      expect(await page.evaluate(() => localStorage.getItem('campus.isThirdPartyLogin'))).toBe('1');
      // the session token is never in an address the browser kept
      const token = await page.evaluate((key) => localStorage.getItem(key), accessTokenStorageKey);
      expect(token).toBeTruthy();
      expect(page.url()).not.toContain(token!);

      // Quit: the session ends here and the browser goes on to the CAS logout, which sends it back to the login page
      await chooseUserMenuEntry(page, /^(Quit|退出)$/);
      await expect(page).toHaveURL(/\/login$/);
      expect(cas.logouts).toHaveLength(1);
      expect(await page.evaluate((key) => localStorage.getItem(key), accessTokenStorageKey)).toBeNull();
    } finally {
      await request.post(apiPaths.identityProviderDelete, { headers, data: { id } });
      await cas.close();
    }
  });
});
