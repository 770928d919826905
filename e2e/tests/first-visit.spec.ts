import { expect, test, type Page } from '@playwright/test';
import { demo, signIn, systemsNav } from '../support/sign-in.ts';

// A signed-in user's first visit after an upgrade, with nothing in the browser's cache (issue 48 item 8): the page asks
// for the layout's files as soon as the HTML is read, beside the entry, instead of one after another. Its speed is in
// `npm run bench` (the empty-cache row); this is what a user and the browser can see of it.

/** Collects the content security policy's refusals in the page, from before its first script. */
async function watchPolicyRefusals(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const refused: string[] = [];
    (window as unknown as { __refused: string[] }).__refused = refused;
    document.addEventListener('securitypolicyviolation', (event) => refused.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  return () => page.evaluate(() => (window as unknown as { __refused: string[] }).__refused);
}

const preloadedFiles = (page: Page) =>
  page.evaluate(() => Array.from(document.head.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"], link[rel="preload"]')).map((link) => new URL(link.href).pathname));

test('a signed-in first visit with an empty cache asks for the layout’s files at once, each of them used, none refused', async ({ page, context }) => {
  const refusals = await watchPolicyRefusals(page);
  // room for every file of the visit in the resource timings (the browser keeps 250 unless told)
  await page.addInitScript(() => performance.setResourceTimingBufferSize(5000));
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning' || message.type() === 'error') warnings.push(message.text());
  });
  await signIn(page, demo.staff);
  await page.evaluate(() => localStorage.setItem('campus.language', 'en-US'));
  const devtools = await context.newCDPSession(page);
  await devtools.send('Network.clearBrowserCache');
  await page.goto('/qy/homePage');
  await expect(systemsNav(page)).toBeVisible();

  const listed = await page.locator('meta[name="campus-signed-in-files"]').getAttribute('content');
  expect(listed).toBeTruthy();
  const preloaded = await preloadedFiles(page);
  // the router and the layout's chunk, its stylesheet and the stored language's texts (English), no other language
  expect(preloaded.some((file) => /\/assets\/router-[^/]+\.js$/.test(file))).toBe(true);
  expect(preloaded.some((file) => /\/assets\/signed-in-[^/]+\.js$/.test(file))).toBe(true);
  expect(preloaded.some((file) => /\/assets\/signed-in-[^/]+\.css$/.test(file))).toBe(true);
  expect(preloaded.filter((file) => /\/assets\/(en-US|zh-CN|zh-MO)-[^/]+\.js$/.test(file)).map((file) => file.match(/(en-US|zh-CN|zh-MO)/)![1])).toEqual(['en-US']);
  // every file asked for early is one the page uses: a preload nothing takes wastes a phone's slow link. A file is in
  // the resource timings once it has arrived, and a preload may still be on its way when the header shows: wait
  const used = () => page.evaluate(() => performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname));
  const notUsed = async () => {
    const files = await used();
    return preloaded.filter((file) => !files.includes(file));
  };
  await expect.poll(notUsed, { timeout: 10_000 }).toEqual([]);
  await page.waitForTimeout(3_500); // Chromium warns of a preload left unused after about three seconds
  expect(warnings.filter((text) => /preload/i.test(text))).toEqual([]);
  expect(await refusals()).toEqual([]);
});

test('signed out, the login page asks for the layout’s files only after its own', async ({ page }) => {
  const refusals = await watchPolicyRefusals(page);
  const requested: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  await page.goto('/login');
  await expect(page.locator('input[name="username"]')).toBeVisible();
  expect(await page.locator('meta[name="campus-signed-in-files"]').count()).toBe(1);
  const loginPage = requested.findIndex((file) => /\/assets\/login-page-[^/]+\.js$/.test(file));
  expect(loginPage).toBeGreaterThanOrEqual(0);
  // the login page warms the layout's code up once it shows (while the form is filled in), never before
  for (const [index, file] of requested.entries()) if (/\/assets\/(router|signed-in)-/.test(file)) expect([file, index > loginPage]).toEqual([file, true]);
  expect(await refusals()).toEqual([]);
});
