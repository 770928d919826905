import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { apiPaths } from '@campus/contracts';
import type { SubAppManifest } from '@campus/contracts';
import { demo, moreEntries, sideNav, signIn, switchLanguage } from '../support/sign-in.ts';

// A sub-system of another team (issue 15, item 18): plain HTML and one script, no SDK and no build, served from
// two other ports as a team's server and its script host would be. An operator registers it with the
// administrators' call; the shell shows it at the next page load, without a restart.

/** The team's entry page: its markup is the sub-app's view; the script fills in where it is and the language. */
const entryHtml = (scriptOrigin: string) => `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>Partner orders</title></head>
  <body>
    <section data-partner-orders>
      <h2>Partner orders</h2>
      <p>Orders placed with our partners, in plain HTML.</p>
      <p data-partner-path></p>
      <p data-partner-language></p>
    </section>
    <script src="${scriptOrigin}/partner-orders.js" entry></script>
  </body>
</html>`;

const script = `(function (global) {
  var view = null;
  global.partnerOrders = {
    bootstrap: function () { return Promise.resolve(); },
    mount: function (props) {
      view = props.container.querySelector('[data-partner-orders]');
      view.querySelector('[data-partner-path]').textContent = 'Showing ' + global.location.pathname;
      view.querySelector('[data-partner-language]').textContent = 'Language ' + props.language;
      return Promise.resolve();
    },
    unmount: function () { view = null; return Promise.resolve(); },
  };
})(typeof globalThis !== 'undefined' ? globalThis : window);`;

/** A server of the team: answers one file, readable by the shell's pages (CORS), as a sub-app server must. */
async function serve(path: string, type: string, body: () => string): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = http.createServer((request, response) => {
    const headers = { 'access-control-allow-origin': '*', 'cache-control': 'no-store' };
    if ((request.url ?? '').split('?')[0] !== path) return void response.writeHead(404, headers).end();
    response.writeHead(200, { ...headers, 'content-type': type }).end(body());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

function manifest(entryOrigin: string, scriptOrigins: string[], replace = false): SubAppManifest {
  return {
    appNo: 'partner',
    label: { 'en-US': 'Partner Orders', 'zh-CN': '合作伙伴订单', 'zh-MO': '合作夥伴訂單' },
    basePath: 'partner',
    entry: `${entryOrigin}/orders/`,
    scriptOrigins,
    pages: [
      { id: 'partner-orders', path: '', name: 'orders', title: { 'en-US': 'Orders', 'zh-CN': '订单', 'zh-MO': '訂單' } },
      { id: 'partner-order-list', parentId: 'partner-orders', path: '/partner/order-list', name: 'orderList', title: { 'en-US': 'Order List', 'zh-CN': '订单列表', 'zh-MO': '訂單列表' } },
    ],
    replace,
  };
}

async function administratorsCall(page: Page, path: string, body: unknown): Promise<{ code: number; msg: string }> {
  const token = await page.evaluate(() => window.localStorage.getItem('campus.token') ?? '');
  const reply = await page.request.post(path, { data: body, headers: { token, language: 'en-US' } });
  return (await reply.json()) as { code: number; msg: string };
}

test.describe('a sub-system from another team', () => {
  let scripts: Awaited<ReturnType<typeof serve>>;
  let entries: Awaited<ReturnType<typeof serve>>;

  test.beforeAll(async () => {
    scripts = await serve('/partner-orders.js', 'text/javascript', () => script);
    entries = await serve('/orders/', 'text/html', () => entryHtml(scripts.origin));
  });
  test.afterAll(async () => {
    await Promise.all([scripts?.close(), entries?.close()]);
  });

  test('registered by an administrator, it shows at the next page load; its script host must be named', async ({ page }) => {
    await signIn(page, demo.sysadmin);
    await switchLanguage(page, 'en-US');
    const viewport = page.locator('#subapp-viewport');

    // registered without naming the host its script comes from: the content policy refuses the script
    expect(await administratorsCall(page, apiPaths.subAppRegister, manifest(entries.origin, []))).toMatchObject({ code: 0 });
    try {
      await page.goto('/partner/order-list');
      await expect(page.getByRole('heading', { name: "Partner Orders is blocked by this server's security policy" })).toBeVisible();

      // a new version of the registration names it: at the next page load the sub-app mounts
      expect(await administratorsCall(page, apiPaths.subAppRegister, manifest(entries.origin, [scripts.origin], true))).toMatchObject({ code: 0 });
      await page.goto('/qy/homePage');
      // the newest system comes last in the header: under More at this width
      await (await moreEntries(page)).filter({ hasText: 'Partner Orders' }).click();
      await expect(page).toHaveURL(/\/partner\/order-list$/);
      await expect(viewport.getByRole('heading', { name: 'Partner orders' })).toBeVisible();
      await expect(viewport.getByText('Showing /partner/order-list')).toBeVisible();
      await expect(viewport.getByText('Language en-US')).toBeVisible();
      await expect(sideNav(page).getByRole('link', { name: 'Order List', exact: true })).toBeVisible();

      // its names in the user's language
      await switchLanguage(page, 'zh-CN');
      await expect(await moreEntries(page)).toContainText(['合作伙伴订单']);
      await expect(sideNav(page).getByRole('link', { name: '订单列表', exact: true })).toBeVisible();
    } finally {
      expect(await administratorsCall(page, apiPaths.subAppRemove, { appNo: 'partner' })).toMatchObject({ code: 0 });
    }

    // removed: its pages are gone at the next load
    await page.goto('/partner/order-list');
    await expect(page.getByRole('button', { name: /home|首页/i })).toBeVisible();
    await expect(page).toHaveURL(/\/not-find$/);
  });
});
