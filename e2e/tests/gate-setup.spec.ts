import { expect, test, type Page } from '@playwright/test';
import { portFor } from '../support/env.ts';
import { startGateDeployment, type GateDeployment } from '../support/gate-deployment.ts';
import { seriousViolations } from '../support/axe.ts';
import { chooseUserMenuEntry, switchLanguage } from '../support/sign-in.ts';

// The gate set-up wizard and card sign-in (issue 13) on a fresh gate deployment with the virtual reader:
// initialisation, mother card, system key card, administrator card, swipe login; entry checks from deep links.

const gatePort = portFor(6393);
const issuerPort = portFor(18193);
let gate: GateDeployment;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  gate = await startGateDeployment(gatePort, issuerPort);
});
test.afterAll(async () => {
  await gate?.stop();
});

const at = (path: string) => `http://127.0.0.1:${gatePort}${path}`;

async function expectPath(page: Page, path: string) {
  await expect.poll(() => new URL(page.url()).pathname).toBe(path);
}

/** Every card route of spec §2 and the three set-up paths of the guard list. */
const cardRoutes = [
  '/swipe-login', '/pwd-swipe-login', '/system-init', '/create-superuser', '/swiper-sys-secret', '/swipe-master-card', '/swipe-master-card-gm',
  '/systemadmin-logincard', '/system-keycard', '/key-card-swiper-sys-secret', '/key-card-create-superuser', '/key-card-swipe-login',
  '/key-card-system-init', '/key-card-swipe-master-card', '/key-card-swipe-master-card-gm', '/select-func', '/super-user-card', '/re-swipe-sys-sceret',
];

test('a non-gate deployment sends every card route to /login', async ({ page }) => {
  test.setTimeout(180_000);
  for (const path of cardRoutes) {
    await page.goto(path);
    await expectPath(page, '/login');
  }
});

test('the reader panel works from the keyboard and in three languages (the operator’s second tab)', async ({ page }) => {
  await page.goto(`${gate.issuerUrl}/reader`);
  await expect(page.getByRole('heading', { name: 'Virtual card reader' })).toBeVisible();
  const state = page.locator('#reader-state');
  await expect(state).toHaveText('Card DE000001 (mother card) is on the reader.');
  await page.getByRole('button', { name: 'Take the card off' }).focus();
  await page.keyboard.press('Enter');
  await expect(state).toHaveText('No card on the reader.');
  await page.getByRole('button', { name: 'Put on the reader: DE000001' }).focus();
  await page.keyboard.press('Enter');
  await expect(state).toHaveText('Card DE000001 (mother card) is on the reader.');
  await page.getByLabel('Language').selectOption('zh-MO');
  await expect(page.getByRole('heading', { name: '虛擬讀卡器' })).toBeVisible();
  await expect(state).toHaveText('卡片 DE000001（母卡）在讀卡器上。');
  await page.getByLabel('語言').selectOption('en-US');
});

test('the whole set-up in the browser, then card sign-in', async ({ page }) => {
  // one operator's whole first hour in one test: a longer hang guard than a single page needs
  test.setTimeout(360_000);
  // the server was told only CARD_ISSUER_PORT (issue 25, item 4): the shell calls the issuer there, not at 18085
  const settings = await (await fetch(at('/iot-login/api/v1.0/Tenant/GetSettings?guid=e2e'))).json();
  expect(settings.data.cardIssuerUrl).toBe(`http://127.0.0.1:${issuerPort}`);
  // a fresh gate deployment: every card screen leads to initialisation first, in its own route family
  const keyCardFamily = (route: string) => route.startsWith('/key-card-') || route === '/system-keycard';
  for (const path of cardRoutes.filter((route) => !['/select-func', '/system-init', '/key-card-system-init'].includes(route))) {
    await page.goto(at(path));
    await expectPath(page, keyCardFamily(path) ? '/key-card-system-init' : '/system-init');
  }
  await page.goto(at('/select-func'));
  await expect(page.getByRole('button', { name: 'Card sign-in', exact: true })).toBeVisible();
  await page.goto(at('/system-init'));
  await expect(page.getByRole('heading', { name: 'National-crypto access-control system initialisation' })).toBeVisible();

  // spec §5 customer number rules, then a wrong customer password
  await page.getByLabel('Customer number').fill('0123');
  await page.getByLabel('Customer password').fill('Wrong#2026');
  await page.getByRole('button', { name: 'Execute initialisation' }).click();
  await expect(page.getByText('Cannot start with 0, please change it to 123')).toBeVisible();
  await page.getByLabel('Customer number').fill('10001');
  await page.getByRole('button', { name: 'Execute initialisation' }).click();
  const dialog = page.getByRole('dialog', { name: 'System initialisation' });
  await expect(dialog.getByText('The customer password does not match the card on the reader')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).last().click();

  // the right password, with the write interrupted once on the way: written again, then confirmed
  await gate.reader.failNext('write', 990321);
  await page.getByLabel('Customer password').fill('Customer#2026');
  await page.getByRole('button', { name: 'Execute initialisation' }).click();
  await expect(page.getByRole('dialog').getByText('The system is initialised: the mother card holds the new system key')).toBeVisible();
  await expectPath(page, '/swipe-master-card-gm');
  // initialised, no mother card swiped yet: the later steps and the login wait for it
  for (const path of ['/swiper-sys-secret', '/create-superuser', '/swipe-login', '/system-init', '/systemadmin-logincard']) {
    await page.goto(at(path));
    await expectPath(page, '/swipe-master-card-gm');
  }
  for (const path of ['/key-card-swiper-sys-secret', '/key-card-swipe-login', '/system-keycard']) {
    await page.goto(at(path));
    await expectPath(page, '/key-card-swipe-master-card-gm');
  }

  // the key-card mother card swipe (spec §4): no card first (the operator sees it), then the card; on to the
  // key-card family's system key card
  await gate.reader.remove();
  await page.getByRole('button', { name: 'Start swiping' }).click();
  await expect(page.getByText('Place the card on the reader...')).toBeVisible();
  await gate.reader.place('DE000001');
  await expectPath(page, '/key-card-swiper-sys-secret');

  // a deep link ahead of the order comes back to the first missing step of its family
  await page.goto(at('/create-superuser'));
  await expectPath(page, '/swiper-sys-secret');
  await page.goto(at('/key-card-create-superuser'));
  await expectPath(page, '/key-card-swiper-sys-secret');

  // the system key card onto a blank card, from the key-card screen: its next step is the key-card one
  await gate.reader.place('DE000002');
  await expect(page.getByText('The system key card stores the system security key.', { exact: false })).toBeVisible();
  await page.getByRole('button', { name: 'Issue the system key card' }).click();
  await expect(page.getByRole('dialog').getByText('The system key card is issued')).toBeVisible();
  await expectPath(page, '/key-card-create-superuser');
  for (const path of ['/swipe-login', '/swiper-sys-secret']) {
    await page.goto(at(path));
    await expectPath(page, '/create-superuser');
  }
  await page.goto(at('/key-card-swipe-login'));
  await expectPath(page, '/key-card-create-superuser');

  // the administrator login card, with its card password, from the plain screen
  await page.goto(at('/create-superuser'));
  await gate.reader.place('DE000003');
  await expect(page.getByLabel('Account')).toHaveValue('sysadmin');
  await page.getByLabel('Card password', { exact: true }).fill('Card#2026a');
  await page.getByLabel('Confirm card password').fill('Card#2026b');
  await page.getByRole('button', { name: 'Issue the administrator login card' }).click();
  await expect(page.getByText('The two passwords are inconsistent')).toBeVisible();
  await page.getByLabel('Confirm card password').fill('Card#2026a');
  await page.getByRole('button', { name: 'Issue the administrator login card' }).click();
  await expect(page.getByRole('dialog').getByText('The administrator login card is issued')).toBeVisible();
  await expectPath(page, '/swipe-login');

  // the set-up is done: its screens lead to the login swipe of their family (spec §2: key-card-swipe-login)
  await page.goto(at('/key-card-system-init'));
  await expectPath(page, '/key-card-swipe-login');
  await page.goto(at('/key-card-swiper-sys-secret'));
  await expectPath(page, '/key-card-swipe-login');
  await page.goto(at('/system-init'));
  await expectPath(page, '/swipe-login');

  // swipe plus password: a wrong password first
  await page.getByLabel('Login name').fill('sysadmin');
  await page.getByLabel('Password', { exact: true }).fill('Wrong#2026');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByText('Wrong account or password')).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill('Card#2026a');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expectPath(page, '/qy/homePage');
  expect(await page.evaluate(() => localStorage.getItem('campus.isCardLogin'))).toBe('1');

  // the card-login password change goes through the reader: the card is rewritten, then the user is signed out
  await switchLanguage(page, 'en-US');
  await chooseUserMenuEntry(page, /^Change Password$/);
  const change = page.getByRole('dialog', { name: 'Change Password' });
  await change.getByLabel('Original Password').fill('Card#2026a');
  await change.getByLabel('New Password', { exact: true }).fill('Card#2027c');
  await change.getByLabel('Confirm Password').fill('Card#2027c');
  await change.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('dialog', { name: 'Change the password on the login card' }).getByText('password changed')).toBeVisible();
  await expectPath(page, '/login');
  await page.goto(at('/swipe-login'));
  await page.getByLabel('Login name').fill('sysadmin');
  await page.getByLabel('Password', { exact: true }).fill('Card#2027c');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expectPath(page, '/qy/homePage');

  // the card alone, from a fresh tab session
  await page.evaluate(() => localStorage.clear());
  await page.goto(at('/swipe-login'));
  await page.getByText('Card only').click();
  await page.getByRole('button', { name: 'Swipe the card and sign in' }).click();
  await expectPath(page, '/qy/homePage');

  // the system administrator sees this PC's card issuer among the trusted card readers, below the key cards
  // (issue 46 item 1), with no critical or serious accessibility violation
  await page.goto(at('/system-keycard'));
  await switchLanguage(page, 'en-US');
  const readers = page.locator('section.campus-trusted-issuers');
  await expect(readers.getByRole('heading', { name: 'Trusted card readers (operator PCs)' })).toBeVisible();
  await expect(readers.locator('tbody tr.ant-table-row')).toHaveCount(1);
  await expect(readers.locator('tbody tr.ant-table-row')).toContainText('Trusted');
  await expect(readers.getByRole('button', { name: 'Revoke' })).toBeEnabled();
  expect(await seriousViolations(page), '/system-keycard').toEqual([]);

  // a lost card would be refused: another card on the reader is not this installation's administrator card
  await page.evaluate(() => localStorage.clear());
  await gate.reader.place('DE000002');
  await page.goto(at('/swipe-login'));
  await page.getByText('Card only').click();
  await page.getByRole('button', { name: 'Swipe the card and sign in' }).click();
  await expect(page.getByText('This is not the kind of card this step needs')).toBeVisible();
  await expectPath(page, '/swipe-login');
});

test('the card issuer not running: the dialog says so and how to start it', async ({ page }) => {
  await page.goto(at('/select-func'));
  await page.route(`http://127.0.0.1:${issuerPort}/**`, (route) => route.abort('connectionrefused'));
  await page.getByRole('button', { name: 'Card sign-in', exact: true }).click();
  await expectPath(page, '/swipe-login');
  await page.getByText('Card only').click();
  await page.getByRole('button', { name: 'Swipe the card and sign in' }).click();
  await expect(page.getByText('card reader not installed or configured')).toBeVisible();
  // what to start, in the customer's words: the download on Tools, at the port this page calls (not 18085)
  await expect(page.getByText('download "Card issuer" for its system from the Tools page', { exact: false })).toBeVisible();
  await expect(page.getByText(`This page looks for it at http://127.0.0.1:${issuerPort}.`, { exact: false })).toBeVisible();
  await expect(page.getByText(`Set CARD_ISSUER_PORT=${issuerPort} before starting it`, { exact: false })).toBeVisible();
  await expect(page.getByText('npm run', { exact: false })).toHaveCount(0);
  // and the Tools page offers that download out of the box (npm run build made it), in a new tab
  const [tools] = await Promise.all([page.waitForEvent('popup'), page.getByRole('link', { name: 'Open the Tools page' }).click()]);
  await expect(tools.getByRole('link', { name: 'Download Card issuer (Windows x64)' })).toBeVisible();
  await expect(tools.getByRole('link', { name: 'Download Card issuer (Linux x64)' })).toBeVisible();
  await tools.close();
});

test('the login page links to card sign-in, and Back returns to the login form', async ({ page }) => {
  await page.goto(at('/login'));
  await page.getByRole('link', { name: 'Sign in with an administrator card' }).click();
  await expectPath(page, '/select-func');
  await expect(page.getByRole('button', { name: 'Card sign-in', exact: true })).toBeVisible();
  await page.goBack();
  await expectPath(page, '/login');
  await expect(page.getByLabel('Username')).toBeVisible();
  await page.goForward();
  await expectPath(page, '/select-func');
});
