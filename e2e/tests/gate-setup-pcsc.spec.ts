import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { PcscLab, pcscLabProblem, type LabCard } from '../../apps/card-issuer/test/support/pcsc-lab.ts';
import { portFor } from '../support/env.ts';
import { startGateDeployment, type GateDeployment } from '../support/gate-deployment.ts';

// The whole gate set-up in the browser with the card issuer on CARD_READER=pcsc: pcscd, the vpcd reader and virtual
// ISO 7816 cards (the PC/SC lab), the mother card written by the vendor's command. Skipped, with the reason as the
// test's annotation, where the lab cannot run (not root, packages missing).

const gatePort = portFor(6398);
const issuerPort = portFor(18198);
const root = path.resolve(import.meta.dirname, '..', '..');
const problem = await pcscLabProblem();

test.describe('gate set-up on a PC/SC reader', () => {
  test.skip(problem !== null, problem ?? '');
  test.describe.configure({ mode: 'serial' });

  let lab: PcscLab;
  let gate: GateDeployment;
  let mother: LabCard;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    lab = await PcscLab.start();
    mother = lab.newCard();
    await lab.place(mother);
    const made = spawnSync(process.execPath, ['--import', 'tsx', 'apps/card-issuer/src/cli/card.ts', 'pcsc-mother', '--customer-no', '10001', '--customer-pwd', 'Customer#2026'], {
      cwd: root,
      encoding: 'utf8',
      // its output in English, whatever the language of the PC running the tests
      env: { ...process.env, CARD_READER_NAME: lab.readerName, CARD_ISSUER_LANG: 'en-US' },
    });
    expect(made.stdout + made.stderr).toContain(`wrote mother card ${mother.serial} for customer 10001`);
    gate = await startGateDeployment(gatePort, issuerPort, {}, { CARD_READER: 'pcsc', CARD_READER_NAME: lab.readerName });
  });
  test.afterAll(async () => {
    await gate?.stop();
    await lab?.close();
  });

  const at = (path: string) => `http://127.0.0.1:${gatePort}${path}`;
  async function expectPath(page: Page, path: string) {
    await expect.poll(() => new URL(page.url()).pathname).toBe(path);
  }

  test('initialisation, mother card, system key card, administrator card and swipe sign-in', async ({ page }) => {
    test.setTimeout(360_000);
    await page.goto(at('/system-init'));
    await page.getByLabel('Customer number').fill('10001');
    await page.getByLabel('Customer password').fill('Customer#2026');
    await page.getByRole('button', { name: 'Execute initialisation' }).click();
    await expect(page.getByRole('dialog').getByText('The system is initialised: the mother card holds the new system key')).toBeVisible();
    await expectPath(page, '/swipe-master-card-gm');

    // the mother card off the reader first: the operator is asked to place it
    await lab.remove();
    await page.getByRole('button', { name: 'Start swiping' }).click();
    await expect(page.getByText('Place the card on the reader...')).toBeVisible();
    await lab.place(mother);
    await expectPath(page, '/swiper-sys-secret');

    const keyCard = lab.newCard();
    await lab.place(keyCard);
    await page.getByRole('button', { name: 'Issue the system key card' }).click();
    await expect(page.getByRole('dialog').getByText('The system key card is issued')).toBeVisible();
    await expectPath(page, '/create-superuser');

    const adminCard = lab.newCard();
    await lab.place(adminCard);
    await expect(page.getByLabel('Account')).toHaveValue('sysadmin');
    await page.getByLabel('Card password', { exact: true }).fill('Card#2026a');
    await page.getByLabel('Confirm card password').fill('Card#2026a');
    await page.getByRole('button', { name: 'Issue the administrator login card' }).click();
    await expect(page.getByRole('dialog').getByText('The administrator login card is issued')).toBeVisible();
    await expectPath(page, '/swipe-login');

    await page.getByLabel('Login name').fill('sysadmin');
    await page.getByLabel('Password', { exact: true }).fill('Card#2026a');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expectPath(page, '/qy/homePage');

    // the key card on the reader instead: refused as the wrong kind of card
    await page.evaluate(() => localStorage.clear());
    await lab.place(keyCard);
    await page.goto(at('/swipe-login'));
    await page.getByText('Card only').click();
    await page.getByRole('button', { name: 'Swipe the card and sign in' }).click();
    await expect(page.getByText('This is not the kind of card this step needs')).toBeVisible();

    // the administrator card alone signs in
    await lab.place(adminCard);
    await page.goto(at('/swipe-login'));
    await page.getByText('Card only').click();
    await page.getByRole('button', { name: 'Swipe the card and sign in' }).click();
    await expectPath(page, '/qy/homePage');
  });

  test('the issuer’s /reader page shows the PC/SC readers and the card on the one in use, in three languages', async ({ page }) => {
    const adminCard = lab.newCard();
    await lab.place(adminCard);
    await page.goto(`${gate.issuerUrl}/reader`);
    await expect(page.getByRole('heading', { name: 'Card reader', exact: true })).toBeVisible();
    const row = page.getByRole('row', { name: new RegExp(lab.readerName) });
    await expect(row).toContainText('yes');
    await expect(row).toContainText('present');
    await expect(page.locator('#reader-state')).toHaveText('A card is on the reader; the card issuer has not read it yet: Read the card shows its fixed number.');
    // the operator asks: the card's fixed number and kind, in the row and the state line
    await page.getByRole('button', { name: 'Read the card' }).click();
    await expect(page.locator('#reader-state')).toHaveText(`Card ${adminCard.serial} (blank) is on the reader.`);
    await expect(row).toContainText(adminCard.serial);
    await expect(page.getByRole('heading', { name: 'How to use a real reader' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Take the card off' })).toBeHidden();
    await lab.remove();
    await expect(row).toContainText('no card');
    await expect(page.locator('#reader-state')).toHaveText('No card on the reader.');
    await page.getByLabel('Language').selectOption('zh-CN');
    await expect(page.getByRole('heading', { name: '如何使用真实读卡器' })).toBeVisible();
    await expect(row).toContainText('无卡');
    // pcscd stopped: the page says so in the language chosen, and recovers when it is back
    await lab.stopPcscd();
    await expect(page.getByRole('alert')).toContainText('PC/SC 服务（pcscd）未运行');
    await lab.startPcscd();
    await expect(row).toContainText('无卡');
    await expect(page.getByRole('alert')).toHaveText('');
  });
});
