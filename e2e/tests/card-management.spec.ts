import { expect, test, type Page } from '@playwright/test';
import { portFor } from '../support/env.ts';
import { startGateDeployment, type GateDeployment } from '../support/gate-deployment.ts';
import { setUpGateByApi } from '../support/gate-set-up-by-api.ts';
import { switchLanguage } from '../support/sign-in.ts';
import { expectOneTableWithHeaders } from '../support/table-headers.ts';

// Card management (issue 14) on a set-up gate deployment with the virtual reader and the demo's card history:
// the buttons follow the state rules for mixed selections; a card is issued, lost (its card sign-in is refused),
// found again, frozen, unfrozen, recycled; another damaged.

const gatePort = portFor(6389);
const issuerPort = portFor(18189);
const cardPassword = 'Card#2026a';
let gate: GateDeployment;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  gate = await startGateDeployment(gatePort, issuerPort, { DEMO_CARDS: 'on' });
  await setUpGateByApi(gate, cardPassword);
});
test.afterAll(async () => {
  await gate?.stop();
});

const at = (path: string) => `http://127.0.0.1:${gatePort}${path}`;
const row = (page: Page, fixedNo: string) => page.locator('tr.ant-table-row').filter({ hasText: fixedNo });
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

async function select(page: Page, fixedNos: string[]) {
  const checked = page.locator('tr.ant-table-row input[type="checkbox"]:checked');
  while ((await checked.count()) > 0) await checked.first().uncheck();
  for (const fixedNo of fixedNos) await row(page, fixedNo).locator('input[type="checkbox"]').check();
}

/** Picks an option of the open antd select dropdown by its text. */
async function pickOption(page: Page, text: RegExp) {
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first().click();
}

async function act(page: Page, action: string, done: RegExp) {
  await button(page, action).click();
  const confirm = page.getByRole('dialog').filter({ hasText: /\?|Confirm/ });
  await confirm.getByRole('button', { name: action, exact: true }).click();
  await expect(page.getByText(done)).toBeVisible();
}

/** Whether the search field's hint fits in the field (issue 25, item 16: it was cut), measured with the field's font. */
async function hintFits(page: Page): Promise<{ hint: string; hintWidth: number; room: number }> {
  return page.locator('#adminCards-filters_text').evaluate((input: HTMLInputElement) => {
    const style = getComputedStyle(input);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return { hint: input.placeholder, hintWidth: Math.ceil(context.measureText(input.placeholder).width), room };
  });
}

/** Card sign-in with the card on the reader alone, in a page of its own: the error text, or null once signed in. */
async function cardSignIn(page: Page): Promise<string | null> {
  const other = await page.context().newPage();
  try {
    await other.goto(at('/swipe-login'));
    // a card sign-in takes on the administrator's own language; the checks below read English
    await switchLanguage(other, 'en-US');
    await other.getByText('Card only').click();
    await other.getByRole('button', { name: 'Swipe the card and sign in' }).click();
    const signedIn = other.waitForURL(/\/qy\//, { timeout: 20_000 }).then(() => null);
    const refused = other.locator('.ant-alert-error, [role="alert"]').first().waitFor({ timeout: 20_000 }).then(async () => other.locator('.ant-alert-error, [role="alert"]').first().innerText());
    return await Promise.race([signedIn, refused]);
  } finally {
    await other.close();
  }
}

test('card management in the browser: mixed selections, issue, loss, unloss, freeze, unfreeze, damage, recycle', async ({ page }) => {
  test.setTimeout(240_000);
  // without a token the table sends the operator to swipe the mother card (on the reader), then comes back
  await page.goto(at('/systemadmin-logincard'));
  await switchLanguage(page, 'en-US');
  // after the set-up the mother card needs the customer password typed (issue 46, item 5)
  await page.getByLabel('Customer password').fill('Customer#2026');
  await page.getByRole('button', { name: 'Start swiping' }).click();
  await expect(page).toHaveURL(/\/systemadmin-logincard$/);
  await expect(page.getByText('5 cards')).toBeVisible();
  await expectOneTableWithHeaders(page.locator('body'), 'System administrator login cards');

  // the buttons follow spec §4 for the selection
  const actions = ['Report lost', 'Found again', 'Freeze', 'Unfreeze', 'Damaged', 'Recycle'];
  const enabled = async () => {
    const out: string[] = [];
    for (const name of actions) if (await button(page, name).isEnabled()) out.push(name);
    return out;
  };
  await select(page, ['DE000003']);
  expect(await enabled()).toEqual(['Report lost', 'Freeze', 'Damaged', 'Recycle']);
  await select(page, ['DE000003', 'DC000003']);
  expect(await enabled()).toEqual([]);
  await select(page, ['DC000003']);
  expect(await enabled()).toEqual(['Found again', 'Damaged']);
  await select(page, ['DC000004']);
  expect(await enabled()).toEqual(['Unfreeze', 'Damaged', 'Recycle']);
  await select(page, ['DC000001', 'DC000002']);
  expect(await enabled()).toEqual([]);

  // the kind by its name, the search hint whole in every language (issue 25, item 16)
  await expect(row(page, 'DE000003')).toContainText('Management card');
  for (const language of ['zh-CN', 'zh-MO', 'en-US'] as const) {
    await switchLanguage(page, language);
    const fit = await hintFits(page);
    expect(fit.hintWidth, `${language}: "${fit.hint}"`).toBeLessThanOrEqual(fit.room);
  }

  // the filters: states, named as the table names them
  await page.getByLabel('Card kinds').click();
  await expect(page.locator('.ant-select-dropdown:visible .ant-select-item-option')).toHaveText(['Management card']);
  await page.keyboard.press('Escape');
  await page.getByLabel('States').click();
  await pickOption(page, /^Lost$/);
  await page.keyboard.press('Escape');
  await button(page, 'Search').click();
  // one card in the singular (issue 48, item 15)
  await expect(page.getByText('1 card', { exact: true })).toBeVisible();
  await button(page, 'Reset').click();
  await expect(page.getByText('5 cards')).toBeVisible();

  // sysadmin holds DE000003: the issue dialog says so as soon as he is chosen (issue 25, item 9)
  await button(page, 'Issue a card').click();
  const refused = page.getByRole('dialog', { name: 'Issue an administrator login card' });
  await refused.getByLabel('System administrator').click();
  await pickOption(page, /sysadmin/);
  await expect(refused.getByText(/^card already exists: .*sysadmin.* already holds a card in use/)).toBeVisible();
  await expect(refused.getByRole('button', { name: 'Issue the card' })).toBeDisabled();
  await refused.getByRole('button', { name: 'Cancel' }).click();

  // report it lost, then issue him a new card onto blank card DE000004
  await select(page, ['DE000003']);
  await act(page, 'Report lost', /Reported lost: DE000003/);
  await gate.reader.place('DE000004');
  await button(page, 'Issue a card').click();
  const issue = page.getByRole('dialog', { name: 'Issue an administrator login card' });
  await issue.getByLabel('System administrator').click();
  await pickOption(page, /sysadmin/);
  await issue.getByLabel('Card password', { exact: true }).fill(cardPassword);
  await issue.getByLabel('Confirm card password').fill(cardPassword);
  await issue.getByRole('button', { name: 'Issue the card' }).click();
  await expect(page.getByText(/The administrator login card of .*sysadmin.* is issued/)).toBeVisible();
  await expect(row(page, 'DE000004')).toContainText(/in use/i);

  // the new card signs in; reported lost, it is refused
  expect(await cardSignIn(page)).toBeNull();
  await select(page, ['DE000004']);
  await act(page, 'Report lost', /Reported lost: DE000004/);
  expect(await cardSignIn(page)).toMatch(/reported lost/i);
  await select(page, ['DE000004']);
  await act(page, 'Found again', /Back in use: DE000004/);
  await select(page, ['DE000004']);
  await act(page, 'Freeze', /Frozen: DE000004/);
  expect(await cardSignIn(page)).toMatch(/frozen/i);
  await select(page, ['DE000004']);
  await act(page, 'Unfreeze', /Unfrozen: DE000004/);
  expect(await cardSignIn(page)).toBeNull();

  // signed in with the card, the system administrator finds the card tables in his user menu, by keyboard
  // (issue 25, item 17); the tables take his access token (a page of its own: no master-card token)
  const signedIn = await page.context().newPage();
  try {
    await signedIn.goto(at('/swipe-login'));
    await switchLanguage(signedIn, 'en-US');
    await signedIn.getByText('Card only').click();
    await signedIn.getByRole('button', { name: 'Swipe the card and sign in' }).click();
    await signedIn.waitForURL(/\/qy\//, { timeout: 20_000 });
    await switchLanguage(signedIn, 'en-US');
    await signedIn.getByTestId('user-menu').focus();
    await signedIn.keyboard.press('ArrowDown');
    const entry = signedIn.getByRole('menuitem', { name: 'System administrator login cards' });
    await expect(entry).toBeVisible();
    await expect(signedIn.getByRole('menuitem', { name: 'System key cards' })).toBeVisible();
    for (let presses = 0; presses < 12 && !(await entry.evaluate((item) => item === document.activeElement || item.classList.contains('ant-dropdown-menu-item-active'))); presses += 1) {
      await signedIn.keyboard.press('ArrowDown');
    }
    await signedIn.keyboard.press('Enter');
    await expect(signedIn).toHaveURL(/\/systemadmin-logincard$/);
    await expect(row(signedIn, 'DE000004')).toBeVisible();
  } finally {
    await signedIn.close();
  }

  // the lost DE000003 is damaged and recovered
  await select(page, ['DE000003']);
  await act(page, 'Damaged', /Recorded as damaged and recovered: DE000003/);
  await expect(row(page, 'DE000003')).toContainText(/damaged/i);

  // DE000004 (on the reader) is the last administrator card in use: Recycle asks first (WCAG 3.3.4), and the
  // server refuses to blank it (issue 25, item 19)
  await select(page, ['DE000004']);
  await button(page, 'Recycle').click();
  const confirmRecycle = page.getByRole('dialog', { name: 'Recycle', exact: true });
  await expect(confirmRecycle).toContainText('Recycle card DE000004? It is blanked on the card reader');
  await confirmRecycle.getByRole('button', { name: 'Recycle', exact: true }).click();
  await expect(page.getByText('Card DE000004 is the last administrator card in use: put another administrator card in use first (nothing was changed)')).toBeVisible();
  await page.getByRole('dialog', { name: 'Recycle card DE000004' }).getByRole('button', { name: 'Close' }).first().click();
  await expect(row(page, 'DE000004')).toContainText(/in use/i);

  // frozen, it is recycled: blanked; with no administrator card in use any more, card sign-in gives way to issuing
  // a new super administrator card
  await select(page, ['DE000004']);
  await act(page, 'Freeze', /Frozen: DE000004/);
  await select(page, ['DE000004']);
  await button(page, 'Recycle').click();
  await page.getByRole('dialog', { name: 'Recycle', exact: true }).getByRole('button', { name: 'Recycle', exact: true }).click();
  await expect(page.getByText('Card DE000004 is recycled: it is blank and can be issued again')).toBeVisible();
  await expect(row(page, 'DE000004')).toContainText(/recycled/i);
  const other = await page.context().newPage();
  await other.goto(at('/swipe-login'));
  await expect(other).toHaveURL(/\/create-superuser$/);
  await switchLanguage(other, 'en-US');
  await expect(other.getByRole('heading', { name: 'Issue system administrator login card' })).toBeVisible();
});

test('zh-CN: the filter row keeps Search and Reset side by side at every width (issue 25, item 16), and fits a phone', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(at('/systemadmin-logincard'));
  await switchLanguage(page, 'zh-CN');
  // no token in a new browser context: the mother card first
  await gate.reader.place('DE000001');
  // the customer password is asked for only after the set-up, which the test before may have undone
  await page.getByRole('button', { name: '开始刷卡' }).waitFor();
  const customerPassword = page.getByLabel('客户密码');
  if (await customerPassword.isVisible()) await customerPassword.fill('Customer#2026');
  await page.getByRole('button', { name: '开始刷卡' }).click();
  // the swipe goes on to the first missing set-up step, if any (the test before may have damaged the last card)
  await expect(page).not.toHaveURL(/swipe-master-card/);
  await page.goto(at('/systemadmin-logincard'));
  const filters = page.getByRole('search');
  await expect(filters.getByRole('button', { name: '重置' })).toBeVisible();
  const apart: number[] = [];
  // the row wraps at other places as the window narrows: the two buttons always stay on one row
  for (let width = 1400; width >= 760; width -= 16) {
    await page.setViewportSize({ width, height: 900 });
    const [search, reset] = await Promise.all([filters.getByRole('button', { name: '查询' }).boundingBox(), filters.getByRole('button', { name: '重置' }).boundingBox()]);
    if (Math.abs(reset!.y - search!.y) > 2) apart.push(width);
  }
  expect(apart).toEqual([]);

  // on a 360 × 740 phone both tables fit the screen: the filters wrap, the table scrolls inside its box (issue 48,
  // item 7: 398-415 px). Here, not in a test of its own: the issuer pairs a limited number of browser pages at once
  await page.setViewportSize({ width: 360, height: 740 });
  for (const path of ['/systemadmin-logincard', '/system-keycard']) {
    await page.goto(at(path));
    await expect(page.locator('tr.ant-table-row').first()).toBeVisible();
    const fit = await page.evaluate(() => {
      const width = window.innerWidth;
      const past = Array.from(document.querySelectorAll<HTMLElement>('body *'))
        // inside the table's scrolling box is where the columns may go on (the box itself must fit)
        .filter((element) => !element.closest('.ant-table-content') || element.matches('.ant-table-content'))
        .filter((element) => element.getClientRects().length > 0 && element.getBoundingClientRect().right > width + 0.5)
        .map((element) => `${element.tagName}.${String(element.className).slice(0, 50)} ${Math.round(element.getBoundingClientRect().right)}`);
      return { width, documentWidth: document.documentElement.scrollWidth, past: past.slice(0, 5) };
    });
    expect(fit, path).toEqual({ width: 360, documentWidth: 360, past: [] });
    await expect(page.locator('.ant-table-content[role="region"]').first()).toBeVisible();
    // a row's checkbox (a radio for key cards) is a 24 px target (WCAG 2.5.8, item 15)
    const box = (await page.locator('tr.ant-table-row').first().locator('.ant-checkbox-wrapper, .ant-radio-wrapper').boundingBox())!;
    expect(Math.min(box.width, box.height), `${path}: a row's selection box`).toBeGreaterThanOrEqual(24);
  }
});
