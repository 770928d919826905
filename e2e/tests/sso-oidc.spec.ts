import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { decodeJwt, generateKeyPair, SignJWT } from 'jose';
import { accessTokenStorageKey, apiPaths, codeMessage, codes, type OperationLogRow } from '@campus/contracts';
import { startOidcTestProvider, type OidcTestProvider } from '../../apps/server/test/support/oidc-test-provider.ts';
import { e2eDataDir, portFor } from '../support/env.ts';
import { startSecondServer, type SecondServer } from '../support/second-server.ts';
import { chooseUserMenuEntry, demo, userMenu } from '../support/sign-in.ts';
import { administratorHeaders, saveProvider } from '../support/sso.ts';

// A person signs in through a real OpenID Provider (oidc-provider on loopback, the server tests' own) in Chromium
// and lands in the layout as login type 4 (issue 49): the provider's own login page, the server's callback, the
// landing's one-time ticket; an unknown account and an account with no sub-system end on /error with their message;
// a fromPath to elsewhere stays home; Quit ends the provider's session too; a changed state and a replayed callback
// end on /error, rotated keys do not. A forged ID token is played between the server and the provider's token
// endpoint (the test provider's changeTokenAnswers: that request never passes the browser). A logout at the provider
// reaches a second server on the same database through the back-channel and ends the session on both.

test.describe.configure({ mode: 'serial' });

let op: OidcTestProvider;
let providerId = '';
let headers: Record<string, string> = {};

test.beforeAll(async ({ request, baseURL }) => {
  op = await startOidcTestProvider({
    redirectUris: [`${baseURL}${apiPaths.ssoOidcCallback}`],
    users: [
      { username: demo.staff.account, password: 'Op#2026' },
      { username: demo.nosub.account, password: 'Op#2026' },
      { username: 'stranger', password: 'Op#2026' },
    ],
  });
  headers = await administratorHeaders(request);
  const view = await saveProvider(request, headers, {
    kind: 'oidc',
    name: { 'en-US': 'Campus ID', 'zh-CN': '校园统一身份', 'zh-MO': '校園統一身分' },
    enabled: true,
    oidc: { discoveryUrl: op.discoveryUrl, clientId: op.clientId, clientSecret: op.clientSecret ?? undefined, scopes: 'openid profile', accountClaim: 'preferred_username' },
  });
  providerId = view.id;
  expect(view.callbackUrl).toBe(`${baseURL}${apiPaths.ssoOidcCallback}`);
});

test.afterAll(async ({ request }) => {
  if (providerId) await request.post(apiPaths.identityProviderDelete, { headers, data: { id: providerId } });
  await op?.close();
});

/** From the shell's login page through the provider's own form, signed in there as `username`. */
async function signInAtProvider(page: Page, username: string, loginPath = '/login') {
  await page.goto(loginPath);
  await page.getByRole('button', { name: 'Sign in with Campus ID' }).click();
  await expect(page).toHaveURL(new RegExp(`^${op.issuer}/interaction/`));
  await page.getByLabel('User name').fill(username);
  await page.getByLabel('Password').fill('Op#2026');
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test('a person signs in at the provider and lands in the layout as login type 4; Quit ends the provider session too', async ({ page }) => {
  await signInAtProvider(page, demo.staff.account, `/login?fromPath=${encodeURIComponent('/qy/homePage')}`);
  await expect(userMenu(page)).toContainText(demo.staff.name);
  await expect(page).toHaveURL(/\/qy\/homePage$/);
  expect(await page.evaluate(() => localStorage.getItem('campus.isThirdPartyLogin'))).toBe('1');
  // no forced password change for a third-party sign-in (spec §4), and the session token never stood in an address
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const token = await page.evaluate((key) => localStorage.getItem(key), accessTokenStorageKey);
  expect(token).toBeTruthy();
  const addresses = await page.evaluate(() => performance.getEntriesByType('navigation').map((entry) => entry.name));
  for (const address of [page.url(), ...addresses]) expect(address).not.toContain(token!);

  // Quit: the session ends here, then the provider asks to end its own and sends the browser back to the login page
  await chooseUserMenuEntry(page, /^(Quit|退出)$/);
  await expect(page).toHaveURL(new RegExp(`^${op.issuer}/`));
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate((key) => localStorage.getItem(key), accessTokenStorageKey)).toBeNull();
  // the provider's session is gone: signing in again asks for the password again
  await page.getByRole('button', { name: 'Sign in with Campus ID' }).click();
  await expect(page.getByLabel('User name')).toBeVisible();
});

test('someone the provider knows but the tenant does not ends on /error, saying so', async ({ page }) => {
  await signInAtProvider(page, 'stranger');
  await expect(page).toHaveURL(/\/error/);
  await expect(page.getByText(codeMessage(codes.ssoAccountUnknown, 'en-US'))).toBeVisible();
  expect(await page.evaluate((key) => localStorage.getItem(key), accessTokenStorageKey)).toBeNull();
});

test('an account with no sub-system ends on /error (spec §4, login type 4), signed out', async ({ page }) => {
  await signInAtProvider(page, demo.nosub.account);
  await expect(page).toHaveURL(/\/error/);
  await expect(page.getByText('The current user has not enabled any subsystem, please contact the administrator')).toBeVisible();
  expect(await page.evaluate((key) => localStorage.getItem(key), accessTokenStorageKey)).toBeNull();
});

test('a fromPath to another site is dropped: the person lands at home, on this origin', async ({ page, baseURL }) => {
  await signInAtProvider(page, demo.staff.account, `/login?fromPath=${encodeURIComponent('//evil.example/steal')}`);
  await expect(userMenu(page)).toContainText(demo.staff.name);
  expect(new URL(page.url()).origin).toBe(baseURL);
  expect(page.url()).not.toContain('evil');
});

/**
 * Signs in at the provider and into the layout, noting the provider's redirect to the server's callback (a route
 * sees no request a redirect made, the request event does).
 */
async function signInNotingCallback(page: Page, username: string): Promise<URL> {
  let callback: URL | null = null;
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === apiPaths.ssoOidcCallback) callback ??= url;
  });
  await signInAtProvider(page, username);
  await expect(userMenu(page)).toContainText(demo.staff.name);
  expect(callback).not.toBeNull();
  return callback!;
}

test('a callback whose state was changed ends on /error: the round trip is not found', async ({ page, context }) => {
  const callback = await signInNotingCallback(page, demo.staff.account);
  callback.searchParams.set('state', `${callback.searchParams.get('state')}x`);
  const tampered = await context.newPage();
  await tampered.goto(callback.href);
  await expect(tampered).toHaveURL(/\/error/);
  await expect(tampered.getByText(codeMessage(codes.ssoStateInvalid, 'en-US'))).toBeVisible();
});

test('a callback sent again after it signed someone in ends on /error: its code and state are spent', async ({ page, context }) => {
  const callback = await signInNotingCallback(page, demo.staff.account);
  // the same redirect again, from another tab of the same browser
  const again = await context.newPage();
  await again.goto(callback.href);
  await expect(again).toHaveURL(/\/error/);
  await expect(again.getByText(codeMessage(codes.ssoStateInvalid, 'en-US'))).toBeVisible();
});

test('after the provider rotated its signing keys, and dropped the old one, a person still signs in', async ({ page }) => {
  await op.rotateKeys({ dropOld: true });
  await signInAtProvider(page, demo.staff.account);
  await expect(userMenu(page)).toContainText(demo.staff.name);
});

/** The tenant's operation log rows of one action written since `since` (epoch ms), as its administrator reads them. */
async function logRowsSince(request: APIRequestContext, action: string, since: number): Promise<OperationLogRow[]> {
  const reply = await request.post(apiPaths.operationLogSearch, { headers, data: { page: { index: 1, size: 50 }, action, startTime: since } });
  expect(reply.ok()).toBe(true);
  return ((await reply.json()) as { data: OperationLogRow[] }).data;
}

test('an ID token the provider did not sign ends on /error, signed in nowhere, and the log says why', async ({ page, context, request }) => {
  // someone between the server and the token endpoint signs the provider's claims with a key of their own: once
  // under the kid of the provider's signing key, once under a kid the provider never published
  const { privateKey } = await generateKeyPair('RS256');
  for (const kid of [op.signingKid(), 'never-published']) {
    const since = Date.now();
    op.changeTokenAnswers(async (body) => {
      body.id_token = await new SignJWT(decodeJwt(String(body.id_token))).setProtectedHeader({ alg: 'RS256', kid }).sign(privateKey);
    });
    try {
      // the person signs in at the provider as always (a new browser session there each time)
      await context.clearCookies();
      await signInAtProvider(page, demo.staff.account);
      await expect(page).toHaveURL(/\/error/);
      await expect(page.getByText(codeMessage(codes.ssoTokenRejected, 'en-US'))).toBeVisible();
    } finally {
      op.changeTokenAnswers(null);
    }
    expect(await page.evaluate((key) => localStorage.getItem(key), accessTokenStorageKey)).toBeNull();
    await expect(userMenu(page)).toHaveCount(0);
    const log = await logRowsSince(request, 'sso-login', since);
    expect(log.map((row) => `${row.result} ${row.detail}`)).toContain(`failure provider ${providerId}: ssoTokenRejected`);
    expect(log.filter((row) => row.result === 'success')).toEqual([]);
  }
  // the same provider, answering for itself again, signs the person in
  await context.clearCookies();
  await signInAtProvider(page, demo.staff.account);
  await expect(userMenu(page)).toContainText(demo.staff.name);
});

test.describe('two servers on one database', () => {
  let second: SecondServer | undefined;
  let bc: OidcTestProvider | undefined;
  let bcProviderId = '';
  const bcName = { 'en-US': 'Staff ID', 'zh-CN': '教职工统一身份', 'zh-MO': '教職工統一身分' };

  test.beforeAll(async ({ request }) => {
    // the worker's own server's data folder, kept: a second node of the same installation
    second = await startSecondServer(portFor(6483), { E2E_DATA_DIR: e2eDataDir, E2E_KEEP_DATA: '1' });
    // the back-channel address names the provider's id: saved first (disabled), pointed at the provider once it runs
    const placeholder = { discoveryUrl: 'https://idp.example.test/.well-known/openid-configuration', clientId: 'x', scopes: 'openid profile', accountClaim: 'preferred_username' };
    const saved = await saveProvider(request, headers, { kind: 'oidc', name: bcName, enabled: false, oidc: placeholder });
    bcProviderId = saved.id;
    // the provider posts its logout to the second node: the address the server gave, at the other node's origin
    const backchannel = new URL(saved.backchannelLogoutUrl);
    backchannel.host = new URL(second.baseURL).host;
    bc = await startOidcTestProvider({ redirectUris: [saved.callbackUrl], backchannelLogoutUri: backchannel.href, users: [{ username: demo.staff.account, password: 'Op#2026' }] });
    await saveProvider(request, headers, {
      id: bcProviderId,
      kind: 'oidc',
      name: bcName,
      enabled: true,
      oidc: { ...placeholder, discoveryUrl: bc.discoveryUrl, clientId: bc.clientId, clientSecret: bc.clientSecret ?? undefined },
    });
  });

  test.afterAll(async ({ request }) => {
    if (bcProviderId) await request.post(apiPaths.identityProviderDelete, { headers, data: { id: bcProviderId } });
    await bc?.close();
    await second?.stop();
  });

  test('a logout at the provider ends the session on both nodes: each page goes to the login page on its next call', async ({ page, context, request }) => {
    const node2 = second!.baseURL;
    const since = Date.now();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in with Staff ID' }).click();
    await expect(page).toHaveURL(new RegExp(`^${bc!.issuer}/interaction/`));
    await page.getByLabel('User name').fill(demo.staff.account);
    await page.getByLabel('Password').fill('Op#2026');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(userMenu(page)).toContainText(demo.staff.name);
    const token = await page.evaluate((key) => localStorage.getItem(key), accessTokenStorageKey);
    expect(token).toBeTruthy();

    // the session is the database's, not the node's: the second node's page, given this browser's sign-in, shows it
    const stored = await page.evaluate(() => Object.entries(localStorage));
    const atNode2 = await context.newPage();
    await atNode2.goto(`${node2}/login`);
    await atNode2.evaluate((entries) => {
      for (const [key, value] of entries) localStorage.setItem(key, value);
    }, stored);
    await atNode2.goto(`${node2}/qy/homePage`);
    await expect(userMenu(atNode2)).toContainText(demo.staff.name);

    // the person signs out at the provider, in a tab of its own; the provider tells the second node
    const atProvider = await context.newPage();
    await atProvider.goto(`${bc!.issuer}/session/end?client_id=${encodeURIComponent(bc!.clientId)}`);
    await atProvider.getByRole('button', { name: 'Yes, sign me out' }).click();
    await expect(atProvider.getByRole('heading', { name: 'You are signed out' })).toBeVisible();
    await expect.poll(async () => (await logRowsSince(request, 'sso-logout', since)).map((row) => `${row.result} ${row.detail}`)).toContain(`success provider ${bcProviderId}: 1 session(s) ended`);

    // both nodes refuse the token now, and each page goes to the login page on its next call
    for (const node of ['', node2]) {
      const detail = await request.get(`${node}${apiPaths.userDetail}`, { headers: { token: token!, tenantCode: '1001' } });
      expect(detail.status(), node || 'node 1').toBe(401);
    }
    for (const tab of [page, atNode2]) {
      await tab.reload();
      await expect(tab).toHaveURL(/\/login(\?|$)/);
      // the login page in whatever language the person's own is, offering the provider again
      await expect(tab.getByRole('button', { name: new RegExp(Object.values(bcName).join('|')) })).toBeVisible();
      expect(await tab.evaluate((key) => localStorage.getItem(key), accessTokenStorageKey)).toBeNull();
    }
  });
});
