import { expect, test } from '@playwright/test';
import { captchaText } from '../support/env.ts';
import { demo, signIn, systemsNav } from '../support/sign-in.ts';

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
    await expect(systemsNav(page).getByRole('menuitem', { name: '企業數據' })).toBeVisible();
    const menus = page.waitForResponse((res) => res.url().includes('/system/api/System/GetMenu'));
    await page.getByLabel(/Language/).selectOption('en-US');
    expect((await menus).request().headers()['language']).toBe('en-US');
    await expect(page.getByRole('navigation', { name: 'Systems' }).getByRole('menuitem', { name: 'Enterprise Data' })).toBeVisible();
  });
});
