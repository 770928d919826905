import { expect, test } from '@playwright/test';
import { baseURL } from '../support/env.ts';
import { demo, fillLogin, userMenu } from '../support/sign-in.ts';

test.describe('untrusted input in URLs', () => {
  test('/error shows an HTML message as text and runs nothing', async ({ page }) => {
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const payload = '<img src=x onerror=alert(1)>';
    await page.goto('/error?msg=' + encodeURIComponent(payload));
    await expect(page.getByRole('heading', { name: 'Something went wrong' })).toBeVisible();
    await expect(page.getByTestId('error-message')).toHaveText(payload);
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    await page.waitForTimeout(300);
    expect(dialogs).toEqual([]);
  });

  for (const fromPath of ['//example.org', '/\\example.org', 'javascript:alert(1)', 'https://example.org/qy/homePage']) {
    test(`fromPath=${fromPath} is never followed`, async ({ page }) => {
      const dialogs: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await page.goto('/login?fromPath=' + encodeURIComponent(fromPath));
      await fillLogin(page, demo.sysadmin.account, demo.sysadmin.password);
      await expect(userMenu(page)).toBeVisible();
      await expect(page).toHaveURL(/\/qy\/homePage$/);
      expect(new URL(page.url()).origin).toBe(new URL(baseURL).origin);
      expect(page.context().pages()).toHaveLength(1);
      expect(dialogs).toEqual([]);
    });
  }
});
