import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { chooseUserMenuEntry, demo, signIn, switchLanguage } from '../support/sign-in.ts';

// axe-core (WCAG 2.1 A and AA rules) on what every user meets: no critical and no serious violation on the login
// page, the layout and its dialogs, in en-US and zh-CN (issue 15).

async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((violation) => violation.impact === 'critical' || violation.impact === 'serious')
    .map((violation) => `${violation.impact} ${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

for (const language of ['en-US', 'zh-CN'] as const) {
  test(`login page, layout, Change Password and About System in ${language}: no critical or serious violation`, async ({ page }) => {
    await page.goto('/login');
    await switchLanguage(page, language);
    expect(await seriousViolations(page), 'login page').toEqual([]);

    await switchLanguage(page, 'en-US');
    await signIn(page, demo.sysadmin);
    await switchLanguage(page, language);
    await expect(page.locator('[data-module]').first()).toBeVisible();
    expect(await seriousViolations(page), 'layout').toEqual([]);

    await chooseUserMenuEntry(page, /^(Change Password|修改密码)$/);
    await expect(page.getByRole('dialog')).toBeVisible();
    expect(await seriousViolations(page), 'Change Password').toEqual([]);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);

    await chooseUserMenuEntry(page, /^(About System|关于系统)$/);
    await expect(page.getByRole('dialog')).toBeVisible();
    expect(await seriousViolations(page), 'About System').toEqual([]);
  });
}
