import { expect, test } from '@playwright/test';
import { captchaText } from '../support/env.ts';
import { seriousViolations } from '../support/axe.ts';
import { demo, fillLogin, headerModules, quit, signIn, switchLanguage, systemsNav, userMenu } from '../support/sign-in.ts';

test.describe('signing in with a password', () => {
  test('sysadmin lands on the enterprise home page and sees every system', async ({ page }) => {
    await signIn(page, demo.sysadmin);
    await expect(page).toHaveURL(/\/qy\/homePage$/);
    await expect(userMenu(page)).toContainText(/\S/);
    // 1280 wide: six systems in the header at most (fewer where the product name would be cut, issue 48 item 10),
    // the others under More
    await expect(headerModules(page).first()).toBeVisible();
    expect(await headerModules(page).count()).toBeLessThanOrEqual(6);
    await expect(systemsNav(page).locator('[data-module-more]')).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('campus.isLogin'))).toBe('1');
  });

  test('the login page comes up without the router, which loads while the form is filled in and opens the layout', async ({ page }) => {
    // React Router marks the window when it loads: the login page, most visits' first load, goes without it (issue 27)
    const routerLoaded = () => page.evaluate(() => '__reactRouterVersion' in window);
    await page.goto('/login');
    await expect(page.getByLabel('Username')).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(await routerLoaded()).toBe(false);
    await page.getByLabel('Username').fill(demo.staff.account);
    await expect.poll(routerLoaded).toBe(true);
    await fillLogin(page, demo.staff.account, demo.staff.password);
    await expect(headerModules(page)).toHaveCount(2);
    await expect(page).toHaveURL(/\/qy\/homePage$/);
    // the router took over the address: Back from the layout does not return to a stale login form
    await page.goBack();
    await expect(page).not.toHaveURL(/\/login/);
  });

  test('a reload of the signed-in layout fetches the shell’s code in a few files, not one for each piece of antd', async ({ page }) => {
    await signIn(page, demo.staff);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script' && new URL(request.url()).pathname.startsWith('/assets/')) scripts.push(new URL(request.url()).pathname);
    });
    await page.reload();
    await expect(headerModules(page)).toHaveCount(2);
    await page.waitForLoadState('networkidle');
    // each file is a request and a module to evaluate on a phone's busy cores: the layout's code was about 40 files
    // (issue 27; apps/shell/vite-plugins/signed-in-chunk.ts)
    expect(scripts.length, scripts.join('\n')).toBeLessThanOrEqual(10);
  });

  test('staff sees only enterprise data and attendance', async ({ page }) => {
    await signIn(page, demo.staff);
    await expect(headerModules(page)).toHaveCount(2);
    await expect(systemsNav(page).locator('[data-module-more]')).toHaveCount(0);
  });

  test('an account in two tenants chooses one, first preselected', async ({ page }) => {
    await page.goto('/login');
    await fillLogin(page, demo.multi.account, demo.multi.password);
    const chooser = page.getByRole('dialog', { name: 'Choose tenant' });
    await expect(chooser).toBeVisible();
    const radios = chooser.getByRole('radio');
    await expect(radios).toHaveCount(2);
    await expect(radios.first()).toBeChecked();
    await chooser.getByRole('radio', { name: /Branch Campus/ }).check();
    await chooser.getByRole('button', { name: 'Confirm' }).click();
    await expect(userMenu(page)).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('campus.tenantCode'))).toBe('1002');
  });

  test('cancelling the tenant chooser leaves the user signed out on the login page', async ({ page }) => {
    await page.goto('/login');
    await fillLogin(page, demo.multi.account, demo.multi.password);
    const chooser = page.getByRole('dialog', { name: 'Choose tenant' });
    await chooser.getByRole('button', { name: 'Cancel' }).click();
    await expect(chooser).toBeHidden();
    await expect(page).toHaveURL(/\/login/);
    expect(await page.evaluate(() => localStorage.getItem('campus.token'))).toBeNull();
  });

  test('a user with no sub-system is told so and stays signed out', async ({ page }) => {
    await page.goto('/login');
    await fillLogin(page, demo.nosub.account, demo.nosub.password);
    // the server refuses the sign-in itself (no session is made), in the language of the login page
    await expect(page.getByText('The current user has not enabled any subsystem, please contact the administrator')).toBeVisible();
    await expect(page).toHaveURL(/\/login/);
    expect(await page.evaluate(() => localStorage.getItem('campus.token'))).toBeNull();
    expect(await page.evaluate(() => localStorage.getItem('campus.tenantCode'))).toBeNull();
  });

  test('empty fields get the rule messages and nothing is sent', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('textbox', { name: 'Verification code' })).toBeVisible();
    let loginCalls = 0;
    page.on('request', (req) => {
      if (req.url().includes('/account/weblogin')) loginCalls += 1;
    });
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByText('Username cannot be empty')).toBeVisible();
    await expect(page.getByText('Password cannot be empty')).toBeVisible();
    await expect(page.getByText('Verification code cannot be empty')).toBeVisible();
    expect(loginCalls).toBe(0);
  });

  test('a wrong password and a wrong image code each say what is wrong', async ({ page }) => {
    await page.goto('/login');
    await fillLogin(page, demo.staff.account, 'not-the-password');
    await expect(page.getByText('Wrong account or password')).toBeVisible();
    await fillLogin(page, demo.staff.account, demo.staff.password, 'ZZZZ');
    await expect(page.getByText('Wrong verification code')).toBeVisible();
    await expect(page).toHaveURL(/\/login/);
  });

  test('clicking the image code fetches a new one', async ({ page }) => {
    await page.goto('/login');
    const refresh = page.getByRole('button', { name: 'Refresh image' });
    await expect(refresh).toBeVisible();
    const next = page.waitForResponse((res) => res.url().includes('/auth/api/verifyCode/getimage'));
    await refresh.click();
    expect((await next).ok()).toBe(true);
  });

  test('the login background arrives as AVIF, a tenth of the PNG it was stored as', async ({ page }) => {
    const background = page.waitForResponse((res) => res.url().endsWith('/oss/file/getObject/login-bg'));
    await page.goto('/login');
    const res = await background;
    expect(res.headers()['content-type']).toBe('image/avif');
    const png = await page.request.get(res.url(), { headers: { accept: 'image/png' } });
    expect(png.headers()['content-type']).toBe('image/png');
    expect((await res.body()).length * 10).toBeLessThan((await png.body()).length);
  });

  test('the image code can be heard instead of seen, by keyboard, in the language of the page; what is heard signs in', async ({ page }) => {
    await page.goto('/login');
    const code = page.getByRole('textbox', { name: 'Verification code' });
    await code.focus();
    // after the image (a button that refreshes it) comes "Hear the code"
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    const hear = page.getByRole('button', { name: 'Hear the code' });
    await expect(hear).toBeFocused();
    const spoken = page.waitForResponse((res) => res.url().includes('/auth/api/verifyCode/getimage') && res.url().includes('audio=true'));
    await page.keyboard.press('Enter');
    expect((await spoken).ok()).toBe(true);
    const player = page.getByLabel('The code, spoken');
    await expect(player).toBeVisible();
    // it plays at once, and it is long enough to say the code's characters one by one
    await expect.poll(() => player.evaluate((audio: HTMLAudioElement) => audio.duration)).toBeGreaterThan(3);
    await expect.poll(() => player.evaluate((audio: HTMLAudioElement) => audio.currentTime > 0 || audio.ended)).toBe(true);
    await expect(hear).toBeFocused();
    expect(await seriousViolations(page)).toEqual([]);

    // in Chinese it is said in Chinese: the request carries the page's language
    await switchLanguage(page, 'zh-CN');
    const chinese = page.waitForRequest((req) => req.url().includes('audio=true'));
    await page.getByRole('button', { name: '收听验证码' }).click();
    expect((await chinese).headers()['language']).toBe('zh-CN');
    await expect(page.getByLabel('验证码语音')).toBeVisible();
    await switchLanguage(page, 'en-US');

    // the spoken code is the code: typed in, it signs in
    await fillLogin(page, demo.staff.account, demo.staff.password, captchaText);
    await expect(userMenu(page)).toBeVisible();
  });

  test('Quit signs out and protected pages ask for sign-in again', async ({ page }) => {
    await signIn(page, demo.sysadmin);
    await quit(page);
    expect(await page.evaluate(() => localStorage.getItem('campus.token'))).toBeNull();
    await page.goto('/qy/homePage');
    await expect(page).toHaveURL(/\/login\?fromPath=/);
  });
});
