import { expect, test, type Page } from '@playwright/test';
import { accessTokenStorageKey, apiPaths, codeMessage, codes } from '@campus/contracts';
import { startOidcTestProvider, type OidcTestProvider } from '../../apps/server/test/support/oidc-test-provider.ts';
import { chooseUserMenuEntry, demo, userMenu } from '../support/sign-in.ts';
import { administratorHeaders, saveProvider } from '../support/sso.ts';

// A person signs in through a real OpenID Provider (oidc-provider on loopback, the server tests' own) in Chromium
// and lands in the layout as login type 4 (issue 49): the provider's own login page, the server's callback, the
// landing's one-time ticket; an unknown account and an account with no sub-system end on /error with their message;
// a fromPath to elsewhere stays home; Quit ends the provider's session too. The refusals of the ID token itself
// (changed state, replayed code, forged token, rotated keys) are the server suite's (apps/server/test/oidc-client.test.ts,
// sso-flow-providers.test.ts): a browser cannot forge them.

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
