import { expect, test } from '@playwright/test';
import { seriousViolations } from '../support/axe.ts';
import { chooseUserMenuEntry, demo, fillLogin, quit, signIn, switchLanguage } from '../support/sign-in.ts';
import { portFor } from '../support/env.ts';
import { startGateDeployment, type GateDeployment } from '../support/gate-deployment.ts';
import { setUpGateByApi } from '../support/gate-set-up-by-api.ts';

// axe-core (WCAG 2.1 A and AA rules) on what every user meets: no critical and no serious violation on the login
// page, the layout and its dialogs, in en-US and zh-CN (issue 15).

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
    // a field is named by its label alone: no required asterisk, no colon (issue 27, item 9)
    await expect(page.getByRole('dialog').locator('input[type=password]').first()).toHaveAccessibleName(/^(Original Password|原密码)$/);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);

    await chooseUserMenuEntry(page, /^(About System|关于系统)$/);
    await expect(page.getByRole('dialog')).toBeVisible();
    expect(await seriousViolations(page), 'About System').toEqual([]);
  });
}

test('landmarks and focus: one main with a page heading, a skip link first, focus on the page after sign-in', async ({ page }) => {
  await signIn(page, demo.sysadmin);
  await switchLanguage(page, 'en-US');
  await page.goto('/qy/operate-log');
  await expect(page.locator('main')).toHaveCount(1);
  await expect(page.getByRole('main')).toHaveAccessibleName('Operation Log');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Operation Log');

  // a fresh sign-in leaves the focus on the page's main area, not on the body
  await quit(page);
  await signIn(page, demo.staff);
  await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('campus-main');

  // the first Tab reaches the skip link, which takes the focus to the page
  // the skip link is the first stop of the Tab order, out of sight until it has the focus
  const skip = page.getByRole('link', { name: 'Skip to content' });
  const firstTabStop = () =>
    page.evaluate(() => Array.from(document.querySelectorAll<HTMLElement>('a[href], button, input, select, [tabindex]')).find((element) => (element.tabIndex >= 0 && element.offsetParent !== null) || element.classList.contains('campus-skip-link'))?.textContent);
  expect(await firstTabStop()).toBe('Skip to content');
  await expect(skip).not.toBeInViewport();
  await skip.focus();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('campus-main');
});

test('the user menu by keyboard: it opens into its items, arrows move, Escape returns; a dialog gives the focus back', async ({ page }) => {
  await signIn(page, demo.sysadmin);
  await switchLanguage(page, 'en-US');
  const trigger = page.getByTestId('user-menu');
  await expect(trigger).toHaveAttribute('aria-haspopup', 'menu');
  await expect(trigger).toHaveAttribute('aria-expanded', 'false');

  await trigger.focus();
  await page.keyboard.press('ArrowDown');
  await expect(trigger).toHaveAttribute('aria-expanded', 'true');
  const menu = page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByRole('menu');
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'Change Password' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(trigger).toBeFocused();

  // Enter opens it too; the arrow moves to About System, Enter opens it; Escape closes it and the trigger has the focus
  await page.keyboard.press('Enter');
  await expect(menu.getByRole('menuitem', { name: 'Change Password' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'About System' })).toBeFocused();
  await page.keyboard.press('Enter');
  const about = page.getByRole('dialog', { name: 'About System' });
  await expect(about).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(about).toBeHidden();
  await expect(trigger).toBeFocused();

  await chooseUserMenuEntry(page, /^Change Password$/);
  const change = page.getByRole('dialog', { name: 'Change Password' });
  await expect(change).toBeVisible();
  await change.getByRole('button', { name: 'Cancel' }).click();
  await expect(change).toBeHidden();
  await expect(trigger).toBeFocused();
});

test.describe('the card screens of a gate deployment', () => {
  const gatePort = portFor(6387);
  let gate: GateDeployment;
  test.beforeAll(async () => {
    gate = await startGateDeployment(gatePort, portFor(18187), { DEMO_CARDS: 'on' });
    await setUpGateByApi(gate, 'Card#2026a');
  });
  test.afterAll(async () => {
    await gate?.stop();
  });
  const at = (path: string) => `http://127.0.0.1:${gatePort}${path}`;

  for (const language of ['en-US', 'zh-CN'] as const) {
    test(`card sign-in, the mother-card swipe and the card table in ${language}: no critical or serious violation`, async ({ page }) => {
      await page.goto(at('/swipe-login'));
      await switchLanguage(page, language);
      await expect(page.locator('h1')).toBeVisible();
      expect(await seriousViolations(page), 'swipe login').toEqual([]);

      await page.goto(at('/swipe-master-card-gm'));
      await expect(page.locator('h1')).toBeVisible();
      expect(await seriousViolations(page), 'mother-card swipe').toEqual([]);

      // the card table, after swiping the mother card (on the reader)
      await page.goto(at('/systemadmin-logincard'));
      await page.getByLabel(/^(Customer password|客户密码)$/).fill('Customer#2026');
      await page.getByRole('button', { name: /^(Start swiping|开始刷卡)$/ }).click();
      await expect(page).toHaveURL(/\/systemadmin-logincard$/);
      await expect(page.locator('tr.ant-table-row').first()).toBeVisible();
      expect(await seriousViolations(page), 'card table').toEqual([]);

      // a danger confirmation (issue 27, item 5: white on the danger colour)
      await page.locator('tr.ant-table-row').filter({ hasText: 'DE000003' }).getByRole('checkbox').check();
      await page.getByRole('button', { name: /^(Report lost|挂失)$/ }).click();
      const confirm = page.getByRole('dialog');
      await expect(confirm.locator('.ant-btn-dangerous')).toBeVisible();
      expect(await seriousViolations(page), 'loss confirmation').toEqual([]);
      await page.keyboard.press('Escape');
      await expect(confirm).toHaveCount(0);
    });
  }
});

test.describe('where the focus goes (issue 27, item 8)', () => {
  test('a refused sign-in leaves the focus on the password, which the message on the page describes', async ({ page }) => {
    await page.goto('/login');
    await switchLanguage(page, 'en-US');
    await fillLogin(page, demo.staff.account, 'Wrong#2026x');
    const password = page.getByLabel('Password', { exact: true });
    await expect(password).toBeFocused();
    await expect(password).toHaveAccessibleDescription(/password/i);
    const refusal = page.locator('.campus-login__refusal');
    await expect(refusal).toBeVisible();
    // said once, on the page (no passing message repeats it), and there until the form is edited
    await expect(page.getByText('Wrong account or password')).toHaveCount(1);
    await expect(page.locator('.ant-message-notice')).toHaveCount(0);
    await page.keyboard.type('x');
    await expect(refusal).toHaveCount(0);
  });

  test('Change Password takes the focus to its first field at every opening', async ({ page }) => {
    await signIn(page, demo.sysadmin);
    await switchLanguage(page, 'en-US');
    for (let opening = 1; opening <= 2; opening += 1) {
      await chooseUserMenuEntry(page, /^Change Password$/);
      const change = page.getByRole('dialog', { name: 'Change Password' });
      await expect(change.getByLabel('Original Password')).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(change).toBeHidden();
    }
  });

  test('the user menu opens on its first item every time: Enter twice never signs out', async ({ page }) => {
    await signIn(page, demo.sysadmin);
    await switchLanguage(page, 'en-US');
    const trigger = page.getByTestId('user-menu');
    const menu = page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByRole('menu');
    await trigger.focus();
    await page.keyboard.press('Enter');
    await expect(menu.getByRole('menuitem', { name: 'Change Password' })).toBeFocused();
    await page.keyboard.press('End');
    await expect(menu.getByRole('menuitem', { name: 'Quit' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(trigger).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(menu.getByRole('menuitem', { name: 'Change Password' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page).not.toHaveURL(/\/login$/);
  });
});
