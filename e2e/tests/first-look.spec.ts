import { expect, test } from '@playwright/test';
import { demo, signIn } from '../support/sign-in.ts';

// What a first customer sees before anything else (issue 15, items 7 and 13): the tab's title and icon,
// the page description, and a language picker that keyboard users can browse.

test('the title is the product name GetSysInfos answers; the page has an icon and a description, and no request 404s', async ({ page }) => {
  const missing: string[] = [];
  page.on('response', (response) => {
    if (response.status() === 404) missing.push(new URL(response.url()).pathname);
  });
  await page.route('**/common-service/api/License/GetSysInfos', async (route) => {
    const reply = await route.fetch();
    const body = (await reply.json()) as { data: { productName: string } };
    body.data.productName = 'Riverside Campus Platform';
    await route.fulfill({ response: reply, json: body });
  });
  await page.goto('/login');
  await expect(page).toHaveTitle('Riverside Campus Platform');
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /campus/i);
  const icon = await page.locator('link[rel="icon"]').getAttribute('href');
  expect((await page.request.get(icon!)).status()).toBe(200);
  await page.waitForLoadState('networkidle');
  expect(missing).toEqual([]);
});

test('the language picker applies the language a keyboard user chooses, not each one passed on the way', async ({ page }) => {
  await page.goto('/login');
  const picker = page.getByTestId('language-picker');
  await picker.selectOption('zh-CN');
  await expect(page.getByRole('button', { name: '登录', exact: true })).toBeVisible();
  await picker.focus();
  // past 繁體中文 to English: the option moves, the interface does not
  await page.keyboard.press('ArrowDown');
  await expect(picker).toHaveValue('zh-MO');
  await page.keyboard.press('ArrowDown');
  await expect(picker).toHaveValue('en-US');
  await expect(page.getByRole('button', { name: '登录', exact: true })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Log in', exact: true })).toBeVisible();
});

test('a signed-in page keeps the product name as its title', async ({ page }) => {
  await signIn(page, demo.sysadmin);
  await expect(page).toHaveTitle(/智慧园区管理平台|Campus Management Platform|智慧園區管理平台/);
});

test('the login page shows the tenant’s login background and logo (issue 15, item 10)', async ({ page }) => {
  await page.goto('/login');
  const logo = page.locator('img.campus-login__logo');
  await expect(logo).toHaveAttribute('src', /\/oss\/file\/getObject\//);
  await expect.poll(() => logo.evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  await expect.poll(() => page.locator('main.campus-login').evaluate((main) => getComputedStyle(main).backgroundImage)).toMatch(/\/oss\/file\/getObject\//);
});
