import { expect, test } from '@playwright/test';
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
});
