import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { captchaText } from '../support/env.ts';
import { demo, fillLogin, signIn } from '../support/sign-in.ts';

test.describe('route guard (spec §2)', () => {
  test('a protected path while signed out goes to /login with fromPath, and back there after sign-in', async ({ page }) => {
    await page.goto('/mj/mj-action-event?from=guard');
    await expect(page).toHaveURL(/\/login\?fromPath=/);
    const fromPath = new URL(page.url()).searchParams.get('fromPath');
    expect(fromPath).toBe('/mj/mj-action-event?from=guard');
    await fillLogin(page, demo.sysadmin.account, demo.sysadmin.password);
    await expect(page).toHaveURL(/\/mj\/mj-action-event\?from=guard$/);
  });

  test('/ and /home while signed out go to /login without fromPath', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/home');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('public paths open without sign-in', async ({ page }) => {
    await page.goto('/tools');
    await expect(page).toHaveURL(/\/tools$/);
    await expect(page.getByRole('columnheader', { name: 'Purpose' })).toBeVisible();
    await page.goto('/error?msg=hello');
    await expect(page.getByTestId('error-message')).toHaveText('hello');
  });

  test('card routes are public and, outside a gate deployment, send the user to /login', async ({ page }) => {
    for (const path of ['/swipe-login', '/system-init', '/key-card-swipe-login', '/system-keycard']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/login$/);
    }
  });

  test('an unknown path while signed in goes to /not-find, whose button returns home', async ({ page }) => {
    await signIn(page, demo.staff);
    await page.goto('/qy/no-such-page');
    await expect(page).toHaveURL(/\/not-find$/);
    await expect(page.getByText('The page does not exist')).toBeVisible();
    await page.getByRole('button', { name: 'Back to home' }).click();
    await expect(page).toHaveURL(/\/qy\/homePage$/);
  });

  test('a page of a system the user may not open is not found', async ({ page }) => {
    await signIn(page, demo.staff);
    await page.goto('/mj/mj-action-event');
    await expect(page).toHaveURL(/\/not-find$/);
  });

  test('/home?toPath= opens the target page of a menu', async ({ page }) => {
    await signIn(page, demo.sysadmin);
    await page.goto('/home?toPath=' + encodeURIComponent('/qy/operate-log'));
    await expect(page).toHaveURL(/\/qy\/operate-log$/);
  });

  test('/not-login without a valid code goes to /error with the message', async ({ page }) => {
    await page.goto('/not-login?code=31&msg=' + encodeURIComponent('SSO refused'));
    await expect(page).toHaveURL(/\/error/);
    await expect(page.getByTestId('error-message')).toHaveText('SSO refused');
  });

  test('/not-login takes the token out of the address bar and the history at once, and signs in', async ({ page, request }) => {
    // an external sign-in's hand-off: a real token, made here through the API as the identity provider would
    const verifyKey = `e2e-not-login-${Date.now()}`;
    await request.get(`/auth/api/verifyCode/getimage?verifyKey=${verifyKey}`);
    const digest = createHash('sha256').update(demo.staff.password, 'utf8').digest('hex');
    const login = await request.post('/user/api/v1.0/account/weblogin', {
      data: { user: { account: demo.staff.account, password: digest, tenantCode: '1001' }, verifyModel: { verifyKey, imageVerifyCode: captchaText } },
    });
    const token = ((await login.json()) as { data: { loginInfo: { token: string } } }).data.loginInfo.token;

    await page.goto('/tools');
    // hold the sign-in half-way (the user settings call), to look at the address while the page works
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/qy/api/System/GetUserSetParam', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`/not-login?token=${token}&tenantCode=1001&code=0`);
    await expect(page).toHaveURL(/\/not-login$/);
    release();
    await expect(page.getByTestId('user-menu')).toBeVisible();
    expect(page.url()).not.toContain(token);
    // back through the history: the hand-off's entry is gone with its token
    await page.goBack();
    await expect(page).toHaveURL(/\/tools$/);
  });

  test('/not-login with a forged token ends on /error saying the token is invalid', async ({ page }) => {
    await page.goto('/not-login?token=forged&tenantCode=1001&code=0');
    await expect(page).toHaveURL(/\/error/);
    await expect(page.getByTestId('error-message')).toHaveText('token invalid');
  });
});
