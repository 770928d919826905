import { expect, test, type Page } from '@playwright/test';
import { baseURL, captchaText } from '../support/env.ts';
import { demo, quit, signIn, switchLanguage, systemsNav, userMenu, type DemoAccount } from '../support/sign-in.ts';

/** The login form's labels in the two Chinese languages. */
const loginLabels = {
  'zh-CN': { username: '用户名', password: '密码', captcha: '验证码', submit: '登录' },
  'zh-MO': { username: '用戶名', password: '密碼', captcha: '驗證碼', submit: '登入' },
} as const;

/** Signs in from a login page shown in Chinese; returns once the layout shows. */
async function signInIn(page: Page, language: keyof typeof loginLabels, who: DemoAccount) {
  const labels = loginLabels[language];
  await page.waitForLoadState('networkidle');
  await page.getByLabel(labels.username).fill(who.account);
  await page.getByLabel(labels.password, { exact: true }).fill(who.password);
  const captcha = page.getByRole('textbox', { name: labels.captcha });
  if (await captcha.isVisible()) await captcha.fill(captchaText);
  await page.getByRole('button', { name: labels.submit, exact: true }).click();
  await expect(userMenu(page)).toBeVisible();
}

test.describe('language', () => {
  test('the login page switches between the three languages and keeps the choice', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
    await page.getByLabel('Language').selectOption('zh-MO');
    await expect(page.getByRole('heading', { name: '登入' })).toBeVisible();
    await page.getByLabel('語言 (Language)').selectOption('zh-CN');
    await expect(page.getByRole('heading', { name: '登录' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: '登录' })).toBeVisible();
    await page.getByLabel('语言 (Language)').selectOption('en-US');
    await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
  });

  test('server messages follow the chosen language', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Language').selectOption('zh-MO');
    await page.getByLabel('用戶名').fill('staff');
    await page.getByLabel('密碼').fill('wrong-password');
    const captcha = page.getByRole('textbox', { name: '驗證碼' });
    if (await captcha.isVisible()) await captcha.fill(captchaText);
    await page.getByRole('button', { name: '登入' }).click();
    await expect(page.getByText('帳號或密碼錯誤')).toBeVisible();
  });

  test('switching language after sign-in relabels the menu of systems', async ({ page }) => {
    await signIn(page, demo.sysadmin);
    await page.getByLabel(/Language/).selectOption('zh-MO');
    await expect(systemsNav(page).getByRole('link', { name: '企業數據' })).toBeVisible();
    const menus = page.waitForResponse((res) => res.url().includes('/system/api/System/GetMenu'));
    await page.getByLabel(/Language/).selectOption('en-US');
    expect((await menus).request().headers()['language']).toBe('en-US');
    await expect(page.getByRole('navigation', { name: 'Systems' }).getByRole('link', { name: 'Enterprise Data' })).toBeVisible();
  });

  test('the stored language is the page’s from the first paint: <html lang> before anything renders', async ({ page }) => {
    // what <html lang> says when the application first puts anything on the page
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { firstRender: string[] }).firstRender = seen;
      new MutationObserver((_records, observer) => {
        const root = document.getElementById('root');
        if (!root || root.childElementCount === 0) return;
        seen.push(document.documentElement.lang, root.textContent ?? '');
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto('/login');
    await page.getByLabel('Language').selectOption('zh-MO');
    await expect(page.getByRole('heading', { name: '登入' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: '登入' })).toBeVisible();
    const [lang, text] = await page.evaluate(() => (window as unknown as { firstRender: string[] }).firstRender);
    expect(lang).toBe('zh-MO');
    expect(text).not.toContain('Login');
  });

  test('the login page relabels everything at a switch, the system name the server words included', async ({ page }) => {
    await page.goto('/login');
    const product = page.locator('.campus-login__product');
    await expect(product).toHaveText('Campus Management Platform');
    await page.getByLabel('Language').selectOption('zh-MO');
    await expect(page.getByRole('heading', { name: '登入' })).toBeVisible();
    await expect(product).toHaveText('智慧園區管理平台');
  });

  test('the language chosen before sign-in and switched in the layout survives sign-out and sign-in, and follows the user', async ({ page, browser }) => {
    // staff's own setting is en-US: a choice made on the login page wins over it, and becomes it
    await page.goto('/login');
    await page.getByLabel('Language').selectOption('zh-MO');
    await signInIn(page, 'zh-MO', demo.staff);
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-MO');
    await expect(systemsNav(page).getByRole('link', { name: '企業數據' })).toBeVisible();

    await switchLanguage(page, 'zh-CN');
    await expect(systemsNav(page).getByRole('link', { name: '企业数据' })).toBeVisible();
    await quit(page);
    await expect(page.getByRole('heading', { name: '登录' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');

    await signInIn(page, 'zh-CN', demo.staff);
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    await expect(systemsNav(page).getByRole('link', { name: '企业数据' })).toBeVisible();

    // another browser, nothing stored there: the user's own setting now says zh-CN
    const elsewhere = await browser.newContext({ baseURL, locale: 'en-US', reducedMotion: 'reduce' });
    try {
      const other = await elsewhere.newPage();
      await signIn(other, demo.staff);
      await expect(other.locator('html')).toHaveAttribute('lang', 'zh-CN');
      await expect(systemsNav(other).getByRole('link', { name: '企业数据' })).toBeVisible();
      // staff's setting back to English for the other tests
      await switchLanguage(other, 'en-US');
      await expect.poll(() => other.evaluate(() => localStorage.getItem('campus.languageUnsaved'))).toBeNull();
    } finally {
      await elsewhere.close();
    }
  });

  test('the enterprise-data home page relabels the tenant’s name at a switch, without a reload', async ({ page }) => {
    await signIn(page, demo.staff);
    await expect(page).toHaveURL(/\/qy\/homePage$/);
    const intro = page.locator('#subapp-viewport .qy-subtitle');
    await expect(intro).toHaveText('Here is how Demo Campus looks right now.');
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    await switchLanguage(page, 'zh-CN');
    await expect(intro).toHaveText('以下是演示园区的当前概况。');
    await switchLanguage(page, 'zh-MO');
    await expect(intro).toHaveText('以下是演示園區的目前概況。');
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    // staff's setting back to English for the other tests
    await switchLanguage(page, 'en-US');
    await expect(intro).toHaveText('Here is how Demo Campus looks right now.');
    await expect.poll(() => page.evaluate(() => localStorage.getItem('campus.languageUnsaved'))).toBeNull();
  });
});
