import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { shellVersion } from '@campus/contracts';
import { sm3 } from 'sm-crypto-v2';
import { chooseUserMenuEntry, demo, fillLogin, signIn, switchLanguage, userMenu } from '../support/sign-in.ts';
import { portFor } from '../support/env.ts';
import { startSecondServer, type SecondServer } from '../support/second-server.ts';
import { expectOneTableWithHeaders } from '../support/table-headers.ts';
import { issueLicence, licenceWorkDir as workDir, repoRoot as root } from '../support/licences.ts';

// Licences (issue 5): the suite's server runs on the demo licence; a second server starts without one.

const aboutDialog = (page: Page) => page.getByRole('dialog', { name: 'About System' });
/** About System's open tab. */
const aboutPanel = (page: Page) => aboutDialog(page).getByRole('tabpanel');
/** The data rows of the open tab's table. */
const aboutRows = (page: Page) => aboutPanel(page).locator('tr.ant-table-row');

async function openAbout(page: Page, tab: 'Version Info' | 'Licenses') {
  await chooseUserMenuEntry(page, /^About System$/);
  await aboutDialog(page).getByRole('tab', { name: tab }).click();
}

test.describe('About System', () => {
  test('Version Info lists the programs, counts them, and copies them in one click', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page, demo.sysadmin);
    await switchLanguage(page, 'en-US');
    await openAbout(page, 'Version Info');
    const main = aboutRows(page).filter({ hasText: 'main-front' });
    await expect(main).toContainText(shellVersion);
    await expect(aboutRows(page).filter({ hasText: 'campus-server' })).toHaveCount(1);
    const rows = await aboutRows(page).count();
    await expect(aboutDialog(page)).toContainText(`${rows} programs in total`);
    await expectOneTableWithHeaders(aboutPanel(page), 'Version Info');
    await aboutDialog(page).getByRole('button', { name: 'One Click Copying' }).click();
    await expect(page.getByText('Copied to the clipboard')).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied.split('\n').filter(Boolean)).toHaveLength(rows);
    expect(copied).toContain(`\tmain-front\t${shellVersion}`);
  });

  test('Licenses shows the customer ID, the demo licence and its detail', async ({ page }) => {
    await signIn(page, demo.sysadmin);
    await switchLanguage(page, 'en-US');
    await openAbout(page, 'Licenses');
    await expect(aboutDialog(page)).toContainText('10001');
    await expect(aboutDialog(page).getByRole('button', { name: 'Add Authorization' })).toBeVisible();
    const demoRow = aboutRows(page).filter({ hasText: 'Permanent' }).first();
    await expect(demoRow).toBeVisible();
    await expect(aboutDialog(page)).toContainText(/\d+ records? in total/);
    await demoRow.getByRole('button', { name: /expand/i }).click();
    // the detail: every application of the demo licence, with its edition
    const detail = aboutPanel(page).locator('tr.ant-table-expanded-row');
    await expect(detail).toContainText('Enterprise Data');
    await expect(detail).toContainText('Door Access');
  });

  test('a user who is not a system administrator sees no licence actions', async ({ page }) => {
    await signIn(page, demo.staff);
    await switchLanguage(page, 'en-US');
    await openAbout(page, 'Licenses');
    await expect(aboutDialog(page).getByRole('tab', { name: 'Licenses' })).toHaveAttribute('aria-selected', 'true');
    await expect(aboutDialog(page).getByRole('button', { name: 'Add Authorization' })).toHaveCount(0);
    // what he may see, and no control that cannot help him (issue 15)
    await expect(aboutPanel(page)).toContainText('The licence list is shown to system administrators');
    await expect(aboutPanel(page)).toContainText('10001');
    await expect(aboutPanel(page).getByRole('button', { name: /Retry/ })).toHaveCount(0);
    await expect(aboutPanel(page)).not.toContainText(/no permission/i);
  });
});

test.describe('adding a licence', () => {
  test('upload a licence and activate it, then sign in again on it', async ({ page }) => {
    const code = `E2E-${Date.now()}`;
    const file = await issueLicence(code);
    const notALicence = path.join(workDir, 'readme.txt');
    writeFileSync(notALicence, 'not a licence');

    await signIn(page, demo.sysadmin);
    await switchLanguage(page, 'en-US');
    await openAbout(page, 'Licenses');
    await aboutDialog(page).getByRole('button', { name: 'Add Authorization' }).click();
    const upload = page.getByRole('dialog', { name: 'licence add - upload file' });
    await expect(upload.getByRole('button', { name: 'Next' })).toBeDisabled();
    await upload.locator('input[type=file]').setInputFiles([notALicence]);
    await expect(page.getByText('readme.txt is not a .lic file')).toBeVisible();
    await expect(upload.getByRole('button', { name: 'Next' })).toBeDisabled();
    await upload.locator('input[type=file]').setInputFiles([file]);
    await upload.getByRole('button', { name: 'Next' }).click();
    await expect(upload).toContainText('Uploaded');
    await upload.getByRole('button', { name: `Activate ${code}.lic` }).click();

    const activation = page.getByRole('dialog', { name: 'Licence activation' });
    await expect(activation.getByRole('tab', { name: 'Old Licence' })).toBeVisible();
    const activate = activation.getByRole('button', { name: 'Activate' });
    await expect(activate).toBeDisabled();
    await activation.getByRole('checkbox').check();
    await activate.click();
    await expect(page.getByText('Activation succeeded, re-login required')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);

    await fillLogin(page, demo.sysadmin.account, demo.sysadmin.password);
    await expect(userMenu(page)).toBeVisible();
    await switchLanguage(page, 'en-US');
    await openAbout(page, 'Licenses');
    await expect(aboutRows(page).filter({ hasText: code })).toContainText('Normal');
    await expect(aboutRows(page).filter({ hasText: 'Replaced' }).first()).toBeVisible();
  });
});

test.describe('the licence list (issue 15)', () => {
  test('an upload shows in the list at once; an expired licence offers no activation; terms are the issued ones', async ({ page }) => {
    const code = `E2E-TERM-${Date.now()}`;
    const twoYears = await issueLicence(code, '2027-12-31');
    await signIn(page, demo.sysadmin);
    await switchLanguage(page, 'en-US');
    await openAbout(page, 'Licenses');
    await aboutDialog(page).getByRole('button', { name: 'Add Authorization' }).click();
    const upload = page.getByRole('dialog', { name: 'licence add - upload file' });
    await upload.locator('input[type=file]').setInputFiles([twoYears, path.join(root, 'docs/licences/expired-example.lic')]);
    await upload.getByRole('button', { name: 'Next' }).click();
    await expect(upload).toContainText('Uploaded');
    await upload.getByRole('button', { name: 'Close', exact: true }).last().click();
    // without reopening anything
    const fresh = aboutRows(page).filter({ hasText: code });
    await expect(fresh).toBeVisible();
    await expect(fresh.getByRole('button', { name: `Activation ${code}` })).toBeVisible();
    const expired = aboutRows(page).filter({ hasText: 'EXAMPLE-EXPIRED-2025' });
    await expect(expired).toContainText('Expired');
    await expect(expired.getByRole('button', { name: 'Activate EXAMPLE-EXPIRED-2025' })).toHaveCount(0);
    // 2026-01-01 to 2027-12-31 reads as the 2 years it was issued for
    await fresh.getByRole('button', { name: `Activation ${code}` }).click();
    const activation = page.getByRole('dialog', { name: 'Licence activation' });
    await activation.getByRole('tab', { name: 'New Licence' }).click();
    await expect(activation.getByRole('tabpanel')).toContainText('2 years');
    await expect(activation.getByRole('tabpanel')).not.toContainText('364 days');
  });

  test('opening /login while signed in goes on to the remembered page', async ({ page }) => {
    await signIn(page, demo.sysadmin);
    await expect(userMenu(page)).toBeVisible();
    const signedInAt = new URL(page.url()).pathname;
    await page.goto('/login');
    await expect(userMenu(page)).toBeVisible();
    await expect.poll(() => new URL(page.url()).pathname).toBe(signedInAt);
    await expect(page.getByRole('button', { name: /^(Login|登录|登入)$/ })).toHaveCount(0);
  });
});

test.describe.serial('an installation without a licence', () => {
  let server: SecondServer;
  test.beforeAll(async () => {
    server = await startSecondServer(portFor(6392), { DEMO_LICENCE: 'off' });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('a normal user is told there is no valid licence and can only return to login', async ({ page }) => {
    await signIn(page, demo.staff, `${server.baseURL}/login`);
    const prompt = page.getByRole('dialog');
    await expect(prompt).toContainText(/no valid licence/i);
    await expect(prompt.getByRole('button', { name: /Register a 30-day trial/ })).toHaveCount(0);
    await prompt.getByRole('button', { name: 'Return to login' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a system administrator is welcomed, registers a 30-day trial, and signs in on it', async ({ page }) => {
    await signIn(page, demo.sysadmin, `${server.baseURL}/login`);
    await switchLanguage(page, 'en-US');
    const prompt = page.getByRole('dialog', { name: 'Welcome' });
    await expect(prompt).toContainText('No licence has been added to this system yet');
    await prompt.getByRole('button', { name: 'Register a 30-day trial' }).click();

    const trial = page.getByRole('dialog', { name: 'Register Trial Licence' });
    const register = trial.getByRole('button', { name: 'Register' });
    await expect(register).toBeDisabled();
    await trial.getByLabel('Administrator password').fill('Wrong#2026x');
    await trial.getByRole('checkbox', { name: 'Enterprise Data' }).check();
    await register.click();
    await expect(trial).toBeVisible(); // a wrong password registers nothing
    await trial.getByLabel('Administrator password').fill(demo.sysadmin.password);
    await register.click();
    await expect(page.getByText('Registration successful, you need to log in again')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);

    await fillLogin(page, demo.sysadmin.account, demo.sysadmin.password);
    await expect(userMenu(page)).toBeVisible();
    await expect(page).toHaveURL(/\/qy\/homePage$/);
    await expect(page.getByRole('dialog', { name: 'Welcome' })).toHaveCount(0);
  });
});

test.describe.serial('a licence that runs out, and a clock set back', () => {
  const port = portFor(6395);
  const yearMs = 365 * 86_400_000;
  let server: SecondServer | undefined;
  const restart = async (env: Record<string, string>) => {
    await server?.stop();
    server = await startSecondServer(port, { DEMO_LICENCE: 'off', ...env });
  };
  test.afterAll(async () => {
    await server?.stop();
  });

  test('an administrator applies a formal licence from the welcome prompt', async ({ page }) => {
    await restart({});
    const code = `E2E-SHORT-${Date.now()}`;
    const file = await issueLicence(code, '2027-06-30');
    await signIn(page, demo.sysadmin, `${server!.baseURL}/login`);
    await switchLanguage(page, 'en-US');
    await page.getByRole('dialog', { name: 'Welcome' }).getByRole('button', { name: 'Apply for a formal licence' }).click();
    const upload = page.getByRole('dialog', { name: 'licence add - upload file' });
    await upload.locator('input[type=file]').setInputFiles([file]);
    await upload.getByRole('button', { name: 'Next' }).click();
    await upload.getByRole('button', { name: `Activate ${code}.lic` }).click();
    const activation = page.getByRole('dialog', { name: 'Licence activation' });
    await activation.getByRole('checkbox').check();
    await activation.getByRole('button', { name: 'Activate' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await fillLogin(page, demo.sysadmin.account, demo.sysadmin.password);
    await expect(userMenu(page)).toBeVisible();
    await expect(page).toHaveURL(/\/qy\/homePage$/);
  });

  test('two years on, the administrator reads that it expired and an employee that there is no valid licence', async ({ page }) => {
    await restart({ E2E_KEEP_DATA: '1', TEST_CLOCK_OFFSET_MS: String(2 * yearMs) });
    await signIn(page, demo.sysadmin, `${server!.baseURL}/login`);
    await switchLanguage(page, 'en-US');
    const prompt = page.getByRole('dialog', { name: 'Licence' });
    await expect(prompt).toContainText('The licence has expired. Please ask the supplier for a new licence.');
    await expect(prompt.getByRole('button', { name: 'View details' })).toBeVisible();
    await expect(prompt.getByRole('button', { name: 'Apply for a formal licence' })).toBeVisible();
    await prompt.getByRole('button', { name: 'Return to login' }).click();
    await expect(page).toHaveURL(/\/login$/);

    await fillLogin(page, demo.staff.account, demo.staff.password);
    const employee = page.getByRole('dialog');
    await expect(employee).toContainText(/no valid licence/i);
    await expect(employee.getByRole('button', { name: 'View details' })).toHaveCount(0);
  });

  test('with the clock set back behind the latest time seen, the licence counts as tampered', async ({ page }) => {
    await restart({ E2E_KEEP_DATA: '1' });
    await signIn(page, demo.staff, `${server!.baseURL}/login`);
    const tampered = page.getByRole('dialog', { name: 'Authorization tampered' });
    await expect(tampered).toBeVisible();
    await tampered.getByRole('button', { name: 'Return to login' }).click();
    await expect(page).toHaveURL(/\/login$/);

    await fillLogin(page, demo.sysadmin.account, demo.sysadmin.password);
    await expect(userMenu(page)).toBeVisible(); // signed in, in the user's own language, before switching
    await switchLanguage(page, 'en-US');
    await expect(page.getByRole('dialog', { name: 'Licence' })).toContainText('The licence failed the check.');
  });
});

test.describe.serial('a gate deployment (national cryptography) without a licence', () => {
  let server: SecondServer;
  test.beforeAll(async () => {
    server = await startSecondServer(portFor(6394), { DEMO_LICENCE: 'off', MJ_SYSTEM: '21' });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('the administrator signs in with the SM3 digest and registers a trial with it', async ({ page }) => {
    const digests: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/system/api/System/AddTempLicense')) digests.push(String(request.postDataJSON()?.oprtPwd ?? ''));
    });
    await signIn(page, demo.sysadmin, `${server.baseURL}/login`);
    await switchLanguage(page, 'en-US');
    await page.getByRole('dialog', { name: 'Welcome' }).getByRole('button', { name: 'Register a 30-day trial' }).click();
    const trial = page.getByRole('dialog', { name: 'Register Trial Licence' });
    await trial.getByRole('checkbox', { name: 'Door Access' }).check();
    await trial.getByLabel('Administrator password').fill(demo.sysadmin.password);
    await trial.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByText('Registration successful, you need to log in again')).toBeVisible();
    expect(digests).toEqual([sm3(new TextEncoder().encode(demo.sysadmin.password)).toLowerCase()]);
    await fillLogin(page, demo.sysadmin.account, demo.sysadmin.password);
    await expect(userMenu(page)).toBeVisible();
    await expect(page.getByRole('dialog', { name: 'Welcome' })).toHaveCount(0);
  });
});

test.describe.serial('licences that are not usable: not started yet, none within validity, none passing the check', () => {
  const port = portFor(6397);
  let server: SecondServer | undefined;
  const restart = async (env: Record<string, string>) => {
    await server?.stop();
    server = await startSecondServer(port, env);
  };
  test.afterAll(async () => {
    await server?.stop();
  });

  /** Signs in as the administrator and returns the licence prompt, read in English. */
  async function adminPrompt(page: Page) {
    await signIn(page, demo.sysadmin, `${server!.baseURL}/login`);
    await switchLanguage(page, 'en-US');
    return page.getByRole('dialog', { name: 'Licence' });
  }

  /** Closes About System; the prompt, which stepped aside for it, is back and signs the user out. */
  async function closeAboutBackToPrompt(page: Page) {
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog', { name: 'About System' })).toBeHidden();
    await page.getByRole('dialog', { name: 'Licence' }).getByRole('button', { name: 'Return to login' }).click();
    await expect(page).toHaveURL(/\/login$/);
  }

  /** An employee gets the general dialog, whatever the reason, with no licence links. */
  async function expectEmployeeDialog(page: Page) {
    await fillLogin(page, demo.staff.account, demo.staff.password);
    const employee = page.getByRole('dialog');
    await expect(employee).toContainText(/no valid licence/i);
    await expect(employee.getByRole('button', { name: 'View details' })).toHaveCount(0);
    await employee.getByRole('button', { name: 'Return to login' }).click();
    await expect(page).toHaveURL(/\/login$/);
  }

  test('with the clock just before the licence in effect begins, the administrator reads that it has not started', async ({ page }) => {
    // Activation refuses a licence that has not started, so this arises only when the clock goes back past the
    // start of the licence in effect by less than the tolerance for a clock set back (10 minutes; more is
    // tampering). The demo licence begins 2026-01-01 00:00 (UTC+8): activated at 00:02, then read at 23:57.
    const demoBegins = Date.UTC(2025, 11, 31, 16, 0, 0);
    await restart({ TEST_CLOCK_OFFSET_MS: String(demoBegins + 2 * 60_000 - Date.now()) });
    await restart({ E2E_KEEP_DATA: '1', TEST_CLOCK_OFFSET_MS: String(demoBegins - 3 * 60_000 - Date.now()) });
    const prompt = await adminPrompt(page);
    await expect(prompt).toContainText('The licence has not started yet. Please ask the supplier for a new licence.');
    await expect(prompt.getByRole('button', { name: 'Apply for a formal licence' })).toBeVisible();
    await prompt.getByRole('button', { name: 'View details' }).click();
    const about = page.getByRole('dialog', { name: 'About System' });
    await expect(about.locator('tr.ant-table-row').filter({ hasText: 'DEMO-2026-0001' })).toContainText('Not started');
    await closeAboutBackToPrompt(page);
    await expectEmployeeDialog(page);
  });

  test('with only an expired licence uploaded, none is within its validity period', async ({ page }) => {
    await restart({ DEMO_LICENCE: 'off' });
    await signIn(page, demo.sysadmin, `${server!.baseURL}/login`);
    await switchLanguage(page, 'en-US');
    await page.getByRole('dialog', { name: 'Welcome' }).getByRole('button', { name: 'Apply for a formal licence' }).click();
    const upload = page.getByRole('dialog', { name: 'licence add - upload file' });
    await upload.locator('input[type=file]').setInputFiles([path.join(root, 'docs/licences/expired-example.lic')]);
    await upload.getByRole('button', { name: 'Next' }).click();
    await expect(upload).toContainText('Uploaded');
    await upload.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click(); // uploaded, not activated
    // the prompt comes back saying what holds now
    const now = page.getByRole('dialog', { name: 'Licence' });
    await expect(now).toContainText('None of the licences is within its validity period.');
    await now.getByRole('button', { name: 'Return to login' }).click();
    await expect(page).toHaveURL(/\/login$/);

    const prompt = await adminPrompt(page);
    await expect(prompt).toContainText('None of the licences is within its validity period.');
    await expect(prompt.getByRole('button', { name: 'Apply for a formal licence' })).toBeVisible();
    await prompt.getByRole('button', { name: 'Return to login' }).click();
    await expectEmployeeDialog(page);
  });

  test('when this installation takes another customer number, none of its licences passes the check', async ({ page }) => {
    // the expired example is for customer 10001: on customer 20002 it fails the check
    await restart({ DEMO_LICENCE: 'off', E2E_KEEP_DATA: '1', CUSTOMER_NO: '20002' });
    const prompt = await adminPrompt(page);
    await expect(prompt).toContainText('None of the licences passed the check.');
    await prompt.getByRole('button', { name: 'View details' }).click();
    const about = page.getByRole('dialog', { name: 'About System' });
    await expect(about).toContainText('20002');
    await expect(about.locator('tr.ant-table-row').filter({ hasText: 'EXAMPLE-EXPIRED-2025' })).toBeVisible();
    await closeAboutBackToPrompt(page);
    await expectEmployeeDialog(page);
  });
});
