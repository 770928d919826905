import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { shellVersion } from '@campus/contracts';
import { sdkVersion } from '@campus/subapp-sdk';
import { baseURL, e2eDataDir } from '../support/env.ts';
import { expect, test, type Page } from '@playwright/test';
import { chooseUserMenuEntry, demo, fillLogin, quit, signIn, switchLanguage, userMenu } from '../support/sign-in.ts';
import { asSetUp } from '../support/set-up-time.ts';
import { expectOneTableWithHeaders } from '../support/table-headers.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Fills the Change Password dialog (labels in English or Simplified Chinese) and presses OK. */
async function changePassword(page: Page, original: string, next: string) {
  const dialog = page.getByRole('dialog', { name: /^(Change Password|修改密码)$/ });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel(/^(Original Password|原密码)$/).fill(original);
  await dialog.getByLabel(/^(New Password|新密码)$/).fill(next);
  await dialog.getByLabel(/^(Confirm Password|确认密码)$/).fill(next);
  await dialog.getByRole('button', { name: /^(OK|确定)$/ }).click();
  return dialog;
}

async function signInAfterChange(page: Page, account: string, password: string) {
  await switchLanguage(page, 'en-US');
  await fillLogin(page, account, password);
}

test.describe('change password', () => {
  test('from the user menu: the old password stops working and the new one works', async ({ page }) => {
    const changed = 'Staff#2027x';
    await signIn(page, demo.staff);
    await chooseUserMenuEntry(page, /^Change Password$/);

    // a mismatch is caught before anything is sent
    const dialog = page.getByRole('dialog', { name: 'Change Password' });
    await dialog.getByLabel('Original Password').fill(demo.staff.password);
    await dialog.getByLabel('New Password').fill(changed);
    await dialog.getByLabel('Confirm Password').fill(`${changed}-typo`);
    await dialog.getByRole('button', { name: 'OK' }).click();
    await expect(dialog.getByText('The New Password is inconsistent with the Confirmed Password!')).toBeVisible();

    await changePassword(page, demo.staff.password, changed);
    await expect(page).toHaveURL(/\/login$/);

    await signInAfterChange(page, demo.staff.account, demo.staff.password);
    await expect(page.getByText('Wrong account or password')).toBeVisible();
    await page.reload();
    await signInAfterChange(page, demo.staff.account, changed);
    await expect(userMenu(page)).toBeVisible();

    // put the demo password back for the other tests (only the current password is refused as a reuse)
    await chooseUserMenuEntry(page, /^Change Password$/);
    await changePassword(page, changed, demo.staff.password);
    await expect(page).toHaveURL(/\/login$/);
  });

  test('the server refuses the current password as the new one and the dialog stays open', async ({ page }) => {
    await signIn(page, demo.staff);
    await chooseUserMenuEntry(page, /^Change Password$/);
    const dialog = await changePassword(page, demo.staff.password, demo.staff.password);
    await expect(dialog.getByText('The new password must differ from the current one').first()).toBeVisible();
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(userMenu(page)).toBeVisible();
  });
});

test.describe('forced password change', () => {
  test('the forced change stands alone: no error message, and the page behind waits instead of failing (issue 48, item 14)', async ({ page }) => {
    // the calls the server refuses until the password is changed (code 191): the sub-app's figures, the version report
    const refused: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 403) refused.push(new URL(response.url()).pathname);
    });
    // every message that pops up (antd's message, gone after 3 s), recorded as it comes
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { campusMessages: string[] }).campusMessages = seen;
      new MutationObserver((changes) => {
        for (const change of changes)
          for (const node of Array.from(change.addedNodes)) {
            if (!(node instanceof HTMLElement)) continue;
            const notices = node.matches('.ant-message-notice') ? [node] : Array.from(node.querySelectorAll('.ant-message-notice'));
            for (const notice of notices) seen.push(notice.textContent ?? '');
          }
      }).observe(document, { childList: true, subtree: true });
    });
    const figuresRefused = page.waitForResponse((response) => response.url().includes('/qy/api/Home/GetFigures') && response.status() === 403);
    await signIn(page, demo.expired);
    const dialog = page.getByRole('dialog', { name: /^(Change Password|修改密码)$/ });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText(/2026年1月1日|January 1, 2026/)).toBeVisible();
    await figuresRefused;
    // what the refused calls would have shown had they failed: a red message (antd's, 3 s) and the page's failed state
    await page.waitForTimeout(1000);
    expect(refused).toContain('/qy/api/Home/GetFigures');
    expect(await page.evaluate(() => (window as unknown as { campusMessages: string[] }).campusMessages)).toEqual([]);
    await expect(page.locator('#campus-main').getByText(/^(数据加载失败。|The figures could not be loaded\.)$/)).toHaveCount(0);
    await expect(page.locator('#campus-main [role="alert"]')).toHaveCount(0);
    // the dialog alone: its notice says what to do, and there is one dialog
    await expect(page.getByRole('dialog')).toHaveCount(1);
  });

  test('expired must change the password before going on, and can only change it or quit', async ({ page }) => {
    const changed = 'Renewed#2026';
    await signIn(page, demo.expired);
    const dialog = page.getByRole('dialog', { name: /^(Change Password|修改密码)$/ });
    await expect(dialog).toBeVisible();
    // "expired on {date}", the date on the calendar of the user time zone (UTC+8 in the demo)
    await expect(dialog.getByText(/2026年1月1日|January 1, 2026/)).toBeVisible();
    await expect(dialog.getByRole('button', { name: /^(Cancel|取消)$/ })).toHaveCount(0);
    await expect(dialog.getByRole('button', { name: /^(Close|关闭)$/ })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeVisible();

    await changePassword(page, demo.expired.password, changed);
    await expect(page).toHaveURL(/\/login$/);
    await signInAfterChange(page, demo.expired.account, changed);
    await expect(userMenu(page)).toBeVisible();
    await expect(page).toHaveURL(/\/qy\/homePage$/);
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });
});

test.describe('tools', () => {
  test('/tools lists the tools and downloads a file', async ({ page }) => {
    await page.goto('/tools');
    const rows = page.locator('.ant-table-tbody tr.ant-table-row');
    await expect(rows.first()).toBeVisible();
    await expectOneTableWithHeaders(page.locator('body'), 'Tools');
    const link = rows.first().getByRole('link');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const file = await download.path();
    expect(download.suggestedFilename()).toMatch(/\S+\.\w+$/);
    const { readFile } = await import('node:fs/promises');
    expect((await readFile(file)).length).toBeGreaterThan(100);
  });

  test('/tools offers the sub-app SDK package and its guide to teams writing a sub-system', async ({ page }) => {
    await page.goto('/tools');
    const row = page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: `Sub-app SDK ${sdkVersion} (npm package)` });
    await expect(row).toContainText(`npm install ./campus-subapp-sdk-${sdkVersion}.tgz`);
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('link').click()]);
    expect(download.suggestedFilename()).toBe(`campus-subapp-sdk-${sdkVersion}.tgz`);
    const { readFile } = await import('node:fs/promises');
    const bytes = await readFile(await download.path());
    // a gzip stream (npm pack's tarball)
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
    await expect(page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: 'Sub-app SDK guide' })).toBeVisible();
  });
});

test.describe('user menu', () => {
  const entries = async (page: Page) => {
    await userMenu(page).click();
    const menu = page.locator('.ant-dropdown:not(.ant-dropdown-hidden) [role="menuitem"]');
    await expect(menu.first()).toBeVisible();
    return menu.allInnerTexts();
  };

  test('shows who is signed in and since when, and the entries each user may have', async ({ page }) => {
    await signIn(page, demo.staff);
    const staff = await entries(page);
    expect(staff[0]).toMatch(/Staff/);
    expect(staff[0]).toMatch(/Signed in/);
    // staff: no device-service code, not a system administrator; the demo runs as a private deployment
    expect(staff.slice(1)).toEqual(['Change Password', 'About System', 'Backup Logs', 'Quit']);
    await page.keyboard.press('Escape');

    await quit(page);
    await switchLanguage(page, 'en-US');
    await signIn(page, demo.sysadmin);
    await switchLanguage(page, 'en-US');
    const admin = await entries(page);
    // a tenant's system administrator also keeps its identity providers (issue 49)
    expect(admin.slice(1)).toEqual(['Change Password', 'About System', 'Device Service', 'Operations Management Platform', 'Backup Logs', 'Identity providers', 'Quit']);
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('menuitem', { name: 'Operations Management Platform' }).click()]);
    expect(popup.url()).toBe(`${baseURL}/ops-platform/`);
  });

  test('About System shows the shell version', async ({ page }) => {
    await signIn(page, demo.staff);
    await chooseUserMenuEntry(page, /^About System$/);
    const about = page.getByRole('dialog', { name: 'About System' });
    await expect(about).toContainText(shellVersion);
    await page.keyboard.press('Escape');
    await expect(about).toBeHidden();
  });

  test('Backup Logs lists the real backups of this server: the first one of the demo, then one taken with campus backup', async ({ page }) => {
    const backupDir = path.join(e2eDataDir, 'backups');
    // the demo took its first backup when it was seeded
    const before = readdirSync(backupDir).filter((name) => name.endsWith('.tar.gz')).sort();
    expect(before.length).toBeGreaterThanOrEqual(1);
    // an operator takes one by hand while the server runs (set-up time: the command, not the shell, is slow)
    const taken = await asSetUp(async () =>
      execFileSync(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/cli/campus.ts'), 'backup', '--remarks', 'before the term starts'], {
        cwd: root,
        env: { ...process.env, NODE_ENV: 'test', DATA_DIR: e2eDataDir, DATABASE_URL: '' },
        encoding: 'utf8',
      }),
    );
    const archive = /^Backup (\S+) /m.exec(taken)?.[1] ?? '';
    expect(path.dirname(archive)).toBe(backupDir);

    await signIn(page, demo.staff);
    await chooseUserMenuEntry(page, /^Backup Logs$/);
    const dialog = page.getByRole('dialog', { name: 'Backup Logs' });
    const rows = dialog.locator('.ant-table-tbody tr.ant-table-row');
    await expect(rows).toHaveCount(before.length + 1);
    await expect(dialog.getByText(`${before.length + 1} records in total`)).toBeVisible();
    // newest first: the one just taken, then the ones on disk before it
    await expect(rows.first()).toContainText(path.basename(archive));
    await expect(rows.nth(1)).toContainText(before.at(-1) ?? '');
    await expectOneTableWithHeaders(dialog, 'Backup Logs');
    await dialog.getByRole('button', { name: /^Detail/ }).first().click();
    const detail = page.getByRole('dialog', { name: 'Backup Log Detail' });
    for (const field of ['Log time', 'File name', 'Backup time', 'Path', 'Host', 'Retention days', 'File size']) {
      await expect(detail.getByText(field, { exact: true })).toBeVisible();
    }
    await expect(detail).toContainText(backupDir);
    await expect(detail).toContainText('Backup by hand: before the term starts');
  });
});
