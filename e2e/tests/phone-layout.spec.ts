import { expect, test, type Page } from '@playwright/test';
import { seriousViolations } from '../support/axe.ts';
import { activeTab, demo, sideNav, signIn, switchLanguage, systemsNav, userMenu } from '../support/sign-in.ts';

// The signed-in layout on a phone (issue 27, item 1; WCAG 1.4.10 reflow): at 360 and 412 px, in the three
// languages, nothing is wider than the screen, and every function of the header and the side menu is reachable.

/** The page is no wider than the window, and each of `locators` lies whole within it. */
async function expectWithinScreen(page: Page, what: string) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth, `${what}: the document is wider than the screen`).toBeLessThanOrEqual(innerWidth);
  for (const [name, locator] of [
    ['menu button', page.locator('.campus-layout__menu-button')],
    ['system name', page.locator('.campus-layout__brand')],
    ['language picker', page.getByLabel(/Language/)],
    ['user menu', userMenu(page)],
  ] as const) {
    const box = await locator.boundingBox();
    expect(box, `${what}: ${name} is shown`).not.toBeNull();
    expect(box!.x, `${what}: ${name} starts on the screen`).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, `${what}: ${name} ends on the screen`).toBeLessThanOrEqual(innerWidth);
  }
}

const navigation = (page: Page) => page.getByRole('dialog', { name: /^(Systems and pages|系统与页面|系統與頁面)$/ });
const openNavigation = (page: Page) => page.getByRole('button', { name: /^(Systems and pages|系统与页面|系統與頁面)$/ }).click();

for (const width of [360, 412]) {
  for (const language of ['en-US', 'zh-CN', 'zh-MO'] as const) {
    test(`at ${width} px in ${language} the layout fits the screen and every function is reachable`, async ({ page }) => {
      await page.setViewportSize({ width, height: 780 });
      await signIn(page, demo.sysadmin);
      await switchLanguage(page, language);
      await expect(page.locator('.campus-layout')).toBeVisible();
      // the systems are not in the header: behind the menu button, with the side menu
      await expect(systemsNav(page)).toHaveCount(0);
      await expectWithinScreen(page, 'home page');

      await openNavigation(page);
      const drawer = navigation(page);
      await expect(drawer).toBeVisible();
      const systems = drawer.getByRole('navigation', { name: /^(Systems|系统|系統)$/ });
      await expect(systems.locator('[data-module]')).toHaveCount(14);
      // another system: its first page opens and the drawer closes
      await systems.locator('[data-module="kq"]').click();
      await expect(drawer).toBeHidden();
      await expect(page).toHaveURL(/\/kq\//);
      // a page of the side menu
      await openNavigation(page);
      const pages = sideNav(page);
      await expect(pages.getByRole('link').first()).toBeVisible();
      // the current page stands out in the skin's colour there as beside a wide screen's page
      await expect(pages.locator('[aria-current="page"]')).toHaveCSS('color', 'rgb(9, 88, 217)');
      const leaf = pages.getByRole('link').last();
      const title = (await leaf.textContent())?.trim() ?? '';
      await leaf.click();
      await expect(navigation(page)).toBeHidden();
      await expect(activeTab(page)).toHaveText(title);
      await expectWithinScreen(page, 'a sub-system page');
      if (width === 412 && language !== 'zh-MO') expect(await seriousViolations(page), 'phone layout').toEqual([]);

      // the account menu with every entry, Quit last
      await userMenu(page).click();
      const quit = page.getByRole('menuitem', { name: /^(Quit|退出)$/ });
      await expect(quit).toBeInViewport();
      await quit.click();
      await expect(page).toHaveURL(/\/login$/);
    });
  }
}
