import { expect, type Page } from '@playwright/test';
import { captchaText } from './env.ts';

export interface DemoAccount {
  account: string;
  password: string;
  name: string;
}

/** The demo seed's accounts (DESIGN §6). */
export const demo = {
  sysadmin: { account: 'sysadmin', password: 'Sysadmin#2026', name: 'System Administrator' },
  staff: { account: 'staff', password: 'Staff#2026', name: 'Staff' },
  multi: { account: 'multi', password: 'Multi#2026', name: 'Multi' },
  nosub: { account: 'nosub', password: 'Nosub#2026', name: 'Nosub' },
  expired: { account: 'expired', password: 'Expired#2026', name: 'Expired' },
} satisfies Record<string, DemoAccount>;

/** Fills the login form as a person would, typing the image code when the page shows one. */
export async function fillLogin(page: Page, account: string, password: string, code = captchaText): Promise<void> {
  // the image code shows once the tenant settings have arrived: wait for them as a person would see them
  await page.waitForLoadState('networkidle');
  await page.getByLabel('Username').fill(account);
  await page.getByLabel('Password').fill(password);
  const captcha = page.getByRole('textbox', { name: 'Verification code' });
  if (await captcha.isVisible()) {
    // the code's image is asked for once the settings have arrived, which a busy machine can leave until after
    // the network has been idle: a person types the code when its image shows (before, there is no key to send)
    await expect(page.getByRole('button', { name: 'Refresh image' }).getByRole('img')).toBeVisible();
    await captcha.fill(code);
  }
  await page.getByRole('button', { name: 'Log in' }).click();
}

/** Opens /login (or a given URL that lands there) and signs in; returns once the layout shows the user. */
export async function signIn(page: Page, who: DemoAccount, url = '/login'): Promise<void> {
  await page.goto(url);
  await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
  await fillLogin(page, who.account, who.password);
  await expect(userMenu(page)).toBeVisible();
}

/** After sign-in the user's own language applies (spec §4 step 1), so layout controls are found in any of them. */
export const userMenu = (page: Page) => page.getByTestId('user-menu');
export const systemsNav = (page: Page) => page.getByRole('navigation', { name: /^(Systems|系统|系統)$/ });
export const sideNav = (page: Page) => page.getByRole('navigation', { name: /^(Pages|页面导航|頁面導覽)$/ });
/** The systems shown in the header itself (not those under More). */
export const headerModules = (page: Page) => systemsNav(page).locator('[data-module]');

/**
 * Waits until the header has counted the systems it shows for good: the logo's image is in (its width is known only
 * then, and the header counts again when it arrives) and two frames have passed.
 */
export async function headerSettled(page: Page): Promise<void> {
  await expect(headerModules(page).first()).toBeVisible();
  const logo = page.locator('.campus-layout__logo');
  if ((await logo.count()) > 0) await expect.poll(() => logo.evaluate((image) => (image as HTMLImageElement).complete && (image as HTMLImageElement).naturalWidth > 0)).toBe(true);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** Opens the header's More list (by hovering, as a mouse user does) and returns its systems. */
export async function moreEntries(page: Page) {
  await systemsNav(page).locator('[data-module-more]').hover();
  const popup = page.locator('.campus-more-popup');
  await expect(popup).toBeVisible();
  return popup.locator('[data-module]');
}
export const pageTabs = (page: Page) => page.locator('.campus-page-tabs [data-tab-path]');
export const activeTab = (page: Page) => page.locator('.campus-page-tabs [aria-selected="true"] [data-tab-path]');

/** Opens the user menu and picks an entry by its name (a regular expression covers the three languages). */
export async function chooseUserMenuEntry(page: Page, name: RegExp): Promise<void> {
  await userMenu(page).click();
  await page.getByRole('menuitem', { name }).click();
}

/** Quit from the user menu; returns once the login page shows. */
export async function quit(page: Page): Promise<void> {
  await chooseUserMenuEntry(page, /^(Quit|退出)$/);
  await expect(page).toHaveURL(/\/login$/);
}

/** Picks a language in the picker and waits until it applies (menus reloaded, the choice stored). */
const pickerLabels = { 'en-US': 'Language', 'zh-CN': '语言 (Language)', 'zh-MO': '語言 (Language)' } as const;

/** Switches the language and returns once the page shows it (the picker's own label is relabelled too). */
export async function switchLanguage(page: Page, language: keyof typeof pickerLabels): Promise<void> {
  await page.getByLabel(/Language/).selectOption(language);
  await expect(page.locator('html')).toHaveAttribute('lang', language);
  await expect(page.getByLabel(pickerLabels[language], { exact: true })).toBeVisible();
}
