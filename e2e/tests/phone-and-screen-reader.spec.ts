import { expect, test, type Locator, type Page } from '@playwright/test';
import { chooseUserMenuEntry, demo, sideNav, signIn, switchLanguage, systemsNav } from '../support/sign-in.ts';

// Issue 48, items 10, 11, 12 and 15: the header's product name whole at every desktop width, primary buttons readable
// under the pointer and not stuck in their hover colour after a tap, the phone's drawer starting with the current
// system's pages, and About System and the drawer keeping the keyboard inside them.

/** WCAG 2.x contrast ratio of two `rgb(…)` colours. */
function contrast(a: string, b: string): number {
  const luminance = (colour: string) => {
    const [r, g, bl] = (colour.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => Number(v) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

const colours = (button: Locator) => button.evaluate((element) => ({ background: getComputedStyle(element).backgroundColor, text: getComputedStyle(element).color }));

async function openBackupLogsSearch(page: Page): Promise<Locator> {
  await chooseUserMenuEntry(page, /^Backup Logs$/);
  const search = page.getByRole('dialog', { name: 'Backup Logs' }).getByRole('button', { name: 'Search', exact: true });
  await expect(search).toBeVisible();
  return search;
}

test('from 1000 to 1920 px in en-US the product name is never cut: systems move under More first (item 10)', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1366, height: 800 });
  await signIn(page, demo.sysadmin);
  await switchLanguage(page, 'en-US');
  const name = page.locator('.campus-layout__system-name');
  await expect(name).toHaveText('Campus Management Platform');
  const cut: number[] = [];
  for (let width = 1000; width <= 1920; width += 40) {
    await page.setViewportSize({ width, height: 800 });
    // the header settles after the resize (the systems are counted again)
    await page.waitForTimeout(150);
    const state = await page.evaluate(() => {
      const label = document.querySelector<HTMLElement>('.campus-layout__system-name')!;
      const systemsCut = Array.from(document.querySelectorAll<HTMLElement>('.campus-top-menu [data-module], .campus-top-menu [data-module-more]')).some((e) => e.scrollWidth > e.clientWidth);
      return { nameCut: label.scrollWidth > label.clientWidth || label.scrollHeight > label.clientHeight + 1, systemsCut, wide: document.documentElement.scrollWidth > window.innerWidth };
    });
    if (state.nameCut || state.systemsCut || state.wide) cut.push(width);
  }
  expect(cut, 'widths where the name, a system or the page is cut').toEqual([]);
  // the systems that gave way are under More, none lost
  await page.setViewportSize({ width: 1366, height: 800 });
  await page.waitForTimeout(150);
  const shown = await systemsNav(page).locator('.campus-top-menu__list [data-module]').count();
  await systemsNav(page).locator('[data-module-more]').hover();
  await expect(page.locator('.campus-more-popup [data-module]')).toHaveCount(14 - shown);
});

test('a primary button under the pointer and pressed keeps white text at 4.5:1 (item 11)', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 800 });
  await signIn(page, demo.sysadmin);
  await switchLanguage(page, 'en-US');
  const search = await openBackupLogsSearch(page);
  const rest = await colours(search);
  expect(contrast(rest.background, rest.text)).toBeGreaterThanOrEqual(4.5);
  await search.hover();
  await expect.poll(async () => (await colours(search)).background).not.toBe(rest.background);
  const hovered = await colours(search);
  expect(contrast(hovered.background, hovered.text), `hover ${hovered.background}`).toBeGreaterThanOrEqual(4.5);
  await page.mouse.down();
  await expect.poll(async () => (await colours(search)).background).not.toBe(hovered.background);
  const pressed = await colours(search);
  expect(contrast(pressed.background, pressed.text), `pressed ${pressed.background}`).toBeGreaterThanOrEqual(4.5);
  await page.mouse.up();
});

test.describe('on a 360 px phone', () => {
  test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

  test('a tapped primary button does not keep its hover colour (item 11)', async ({ page }) => {
    await signIn(page, demo.sysadmin);
    await switchLanguage(page, 'en-US');
    const search = await openBackupLogsSearch(page);
    const rest = await colours(search);
    await search.tap();
    await page.waitForTimeout(500);
    expect((await colours(search)).background).toBe(rest.background);
  });

  test("the drawer starts with the current system's pages under its name, the other systems after (item 12)", async ({ page }) => {
    await signIn(page, demo.sysadmin);
    await switchLanguage(page, 'en-US');
    await page.getByRole('button', { name: 'Systems and pages' }).click();
    const drawer = page.getByRole('dialog', { name: 'Systems and pages' });
    await expect(drawer).toBeVisible();
    const pages = sideNav(page);
    // a heading names the current system, its pages follow, then the other systems under a heading of their own
    await expect(drawer.getByRole('heading')).toHaveText(['Enterprise Data', 'Systems']);
    const systems = drawer.getByRole('navigation', { name: 'Systems' });
    const pagesFirst = await pages.evaluate((element, other) => Boolean(element.compareDocumentPosition(other!) & Node.DOCUMENT_POSITION_FOLLOWING), await systems.elementHandle());
    expect(pagesFirst, 'the pages come before the systems').toBe(true);
    // the first page is in view and a few Tab presses away (close button, then the pages)
    const firstPage = pages.locator('a, button').first();
    await expect(firstPage).toBeInViewport();
    let presses = 0;
    while (!(await firstPage.evaluate((element) => element === document.activeElement)) && presses < 20) {
      await page.keyboard.press('Tab');
      presses += 1;
    }
    expect(presses).toBeLessThanOrEqual(3);
  });

  test('Tab and Shift+Tab stay inside the drawer (item 15)', async ({ page }) => {
    await signIn(page, demo.sysadmin);
    await switchLanguage(page, 'en-US');
    await page.getByRole('button', { name: 'Systems and pages' }).click();
    const drawer = page.getByRole('dialog', { name: 'Systems and pages' });
    await expect(drawer).toBeVisible();
    await expectTabStaysInside(page, drawer);
  });
});

/** Tabs once round `container` and a few stops more, then back with Shift+Tab: the focus never leaves it. */
async function expectTabStaysInside(page: Page, container: Locator) {
  const stops = await container.evaluate(
    (element) => Array.from(element.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, [tabindex]')).filter((e) => e.tabIndex >= 0 && !e.closest('[inert]') && e.getClientRects().length > 0).length,
  );
  expect(stops).toBeGreaterThan(1);
  const outside: string[] = [];
  const inside = () => container.evaluate((element) => element.contains(document.activeElement));
  const where = () => page.evaluate(() => `${document.activeElement?.tagName} ${document.activeElement?.textContent?.slice(0, 30) ?? ''}`);
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let i = 0; i < stops + 3; i++) {
      await page.keyboard.press(key);
      if (!(await inside())) outside.push(`${key} ${i + 1}: ${await where()}`);
    }
  }
  expect(outside).toEqual([]);
}

test.describe('About System', () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 1366, height: 800 });
    await signIn(page, demo.sysadmin);
    await switchLanguage(page, 'en-US');
    await chooseUserMenuEntry(page, /^About System$/);
    await expect(page.getByRole('dialog', { name: 'About System' })).toBeVisible();
  });

  test('its tabs are named by their labels alone; Tab stays inside it (item 15)', async ({ page }) => {
    const about = page.getByRole('dialog', { name: 'About System' });
    await about.getByRole('tab', { name: 'Version Info', exact: true }).focus();
    await page.keyboard.press('ArrowRight');
    // the tab list tells its size; the tab's name is its label, not "Tab 2 of 2Licenses"
    await expect(about.getByRole('tab', { name: 'Licenses', exact: true })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(about.getByRole('tab', { name: 'Licenses', exact: true })).toHaveAttribute('aria-selected', 'true');
    // the demo's licence (other specs of this worker may have added theirs)
    await expect(about.getByRole('row', { name: /DEMO-2026-0001/ }).getByRole('button', { name: 'Expand row' })).toBeVisible();
    await expectTabStaysInside(page, about);
  });

  test('the Licenses table: words whole in its headers, no empty column, targets of 24 px, one record in the singular (item 15)', async ({ page }) => {
    const about = page.getByRole('dialog', { name: 'About System' });
    await about.getByRole('tab', { name: 'Licenses', exact: true }).click();
    const expand = about.getByRole('row', { name: /DEMO-2026-0001/ }).getByRole('button', { name: 'Expand row' });
    await expect(expand).toBeVisible();
    const box = (await expand.boundingBox())!;
    expect(Math.min(box.width, box.height), 'the row-expand button').toBeGreaterThanOrEqual(24);
    // each word of a column's title fits the column (no "Effectiven-ess")
    const broken = await about.getByRole('tabpanel', { name: 'Licenses' }).locator('thead th').evaluateAll((cells) =>
      cells.flatMap((cell) => {
        const shown = cell.cloneNode(true) as HTMLElement;
        shown.querySelectorAll('.campus-visually-hidden').forEach((hidden) => hidden.remove());
        const style = getComputedStyle(cell);
        const context = document.createElement('canvas').getContext('2d')!;
        context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const room = cell.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return (shown.textContent ?? '').split(/\s+/).filter((word) => word && context.measureText(word).width > room + 0.5);
      }),
    );
    expect(broken).toEqual([]);
    // the demo's licence is in effect: nothing to activate, so no Actions column; every title says what it holds
    await expect(about.getByRole('columnheader', { name: 'Effectiveness' })).toBeVisible();
    // (other specs of this worker may have added licences that still wait for activation: then Actions is right)
    const records = await about.getByRole('button', { name: 'Expand row' }).count();
    if (records === 1) await expect(about.getByRole('columnheader', { name: 'Actions' })).toHaveCount(0);
    for (const header of await about.getByRole('columnheader').all()) expect((await header.textContent())?.trim()).not.toBe('');
    // "1 record in total" in the singular (other specs of this worker may have added licences: then the plural)
    await expect(about.getByText(records === 1 ? '1 record in total' : `${records} records in total`, { exact: true })).toBeVisible();
  });
});

test("the password field's eye is a 24 px target (item 15)", async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 800 });
  await signIn(page, demo.sysadmin);
  await switchLanguage(page, 'en-US');
  await chooseUserMenuEntry(page, /^Change Password$/);
  const dialog = page.getByRole('dialog', { name: 'Change Password' });
  await expect(dialog).toBeVisible();
  const eyes = dialog.locator('.ant-input-password-icon');
  expect(await eyes.count()).toBeGreaterThan(0);
  for (const eye of await eyes.all()) {
    const box = (await eye.boundingBox())!;
    expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(24);
  }
});
