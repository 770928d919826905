import fs from 'node:fs';
import path from 'node:path';
import { randomInt } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { CardLoginMode, Localised, SkinCode } from '@campus/contracts';
import type { Config } from '../config.ts';
import type { Services } from '../services.ts';
import { meetsPasswordPolicy } from '../modules/account/password.ts';
import { catalogueSystems, cataloguePages, functionCodes, systems } from './catalogue.ts';
import { demoOrganisations } from './enterprise.ts';
import { drawLoginBackground, logoSvg } from './images.ts';

export const logoIds = { header: 'logo-header', loginLogo: 'logo-login', loginBg: 'login-bg', system: 'logo-system' } as const;

const systemName: Localised = { 'en-US': 'Campus Management Platform', 'zh-CN': '智慧园区管理平台', 'zh-MO': '智慧園區管理平台' };

export interface DemoAccount {
  account: string;
  password: string;
  tenants: string[];
  note: string;
}

export const demoAccounts: DemoAccount[] = [
  { account: 'sysadmin', password: 'Sysadmin#2026', tenants: ['1001'], note: 'system and installation administrator, every system' },
  { account: 'staff', password: 'Staff#2026', tenants: ['1001'], note: 'qy and kq only, some function rights missing' },
  { account: 'multi', password: 'Multi#2026', tenants: ['1001', '1002'], note: 'in two tenants with different systems' },
  { account: 'nosub', password: 'Nosub#2026', tenants: ['1001'], note: 'no sub-system enabled' },
  { account: 'expired', password: 'Expired#2026', tenants: ['1001'], note: 'password expired on 2026-01-01: must change it' },
];

export type SeedResult =
  | { mode: 'existing' }
  | { mode: 'demo' }
  | { mode: 'production'; admin: { account: string; password: string; tenantCode: string } };

/** Reference data every installation needs: the systems and pages of spec §1 and the logos. */
async function seedCatalogue(services: Services): Promise<void> {
  const logo = Buffer.from(logoSvg, 'utf8');
  for (const id of [logoIds.header, logoIds.loginLogo, logoIds.system]) {
    const stored = await services.oss.get(id);
    if (!stored?.body.equals(logo)) await services.oss.put(id, 'image/svg+xml', logo);
  }
  // Drawn and encoded (AVIF, WebP) only when the database has none: doing it at every start loaded the canvas and
  // its encoders into every server and left it tens of MB larger for good (docs/architecture.md, Memory). A new
  // drawing would take a new id.
  if ((await services.oss.get(logoIds.loginBg)) === undefined) await services.oss.put(logoIds.loginBg, 'image/png', await drawLoginBackground());
  if (await services.menu.hasSystems()) return;
  for (const s of catalogueSystems()) await services.menu.addSystem(s);
  for (const p of cataloguePages()) await services.menu.addPage(p);
}

async function createTenant(services: Services, code: string, name: Localised, skin?: SkinCode, cardLogin?: CardLoginMode) {
  await services.account.createTenant({
    code,
    name,
    skin,
    cardLogin,
    systemName,
    headerLogoId: logoIds.header,
    loginLogoId: logoIds.loginLogo,
    loginBgId: logoIds.loginBg,
    systemLogoId: logoIds.system,
  });
}

async function grantAll(services: Services, userId: string) {
  for (const s of systems) await services.menu.grant(userId, s.appNo, functionCodes(s.appNo));
}

/**
 * The card-issuer guide of the demo tools list, in the three languages of the shell, naming the address this
 * server's shell calls the issuer at (CARD_ISSUER_URL, else CARD_ISSUER_PORT on the PC).
 */
const cardIssuerGuide = (issuerUrl: string) => `Card issuer service: operator guide
===================================

English
-------
The card issuer is a small service on the operator's PC. The shell calls it to read and write
cards through a USB card reader. This installation's shell calls it at ${issuerUrl}: start it with
CARD_ISSUER_PORT set to that port when it is not 18085, the issuer's default. It answers only on this PC.

1. Install the card-issuer service on every PC that issues or recycles cards: download "Card issuer
   (Windows x64)" or "(Linux x64)" from the Tools page, unpack it and run start.cmd (Windows) or
   ./start.sh (Linux). Then connect the reader by USB.
2. Open a card page of the shell. "Card reader not installed or configured" means the service does
   not answer: check that it runs and that the reader is connected.
3. Place the card on the reader when asked. While no card is found the shell tries again every
   3 seconds; a write that was interrupted is written again. Any other failure is final: take the
   card away, check it and start again.
4. Gate deployments are set up in this order: system initialisation (mother card), master card,
   system key card, administrator login card, then swipe login.
5. Keep the mother card and the system key card locked away: together with the customer number and
   customer password they hold the system key.

简体中文
--------
发卡服务是运行在操作员电脑上的小型服务，管理平台通过它使用 USB 读卡器读写卡片。
本系统的管理平台在 ${issuerUrl} 调用它：该端口不是发卡服务默认的 18085 时，请设置 CARD_ISSUER_PORT 为该端口后再启动。
它只在本机应答。

1. 在每台需要发卡或回收卡片的电脑上安装发卡服务：从工具页面下载"发卡器（Windows x64）"或"（Linux x64）"，
   解压后运行 start.cmd（Windows）或 ./start.sh（Linux），然后用 USB 连接读卡器。
2. 打开管理平台的卡片页面。若提示"读卡器未安装或未配置"，说明发卡服务没有应答：
   请检查服务是否运行、读卡器是否已连接。
3. 按提示把卡片放在读卡器上。未检测到卡片时，平台每 3 秒重试一次；写卡中断时会重新写入。
   其他错误不会重试：请取下卡片，检查后重新操作。
4. 门禁部署的设置顺序：系统初始化（母卡）、刷主卡、系统密钥卡、管理员登录卡，最后刷卡登录。
5. 请妥善锁存母卡和系统密钥卡：它们与客户编号、客户密码一起保存着系统密钥。

繁體中文
--------
發卡服務是運行在操作員電腦上的小型服務，管理平台透過它使用 USB 讀卡器讀寫卡片。
本系統的管理平台在 ${issuerUrl} 呼叫它：該連接埠不是發卡服務預設的 18085 時，請設定 CARD_ISSUER_PORT 為該連接埠後再啟動。
它只在本機回應。

1. 在每台需要發卡或回收卡片的電腦上安裝發卡服務：從工具頁面下載「發卡器（Windows x64）」或「（Linux x64）」，
   解壓後執行 start.cmd（Windows）或 ./start.sh（Linux），然後用 USB 連接讀卡器。
2. 開啟管理平台的卡片頁面。若提示「讀卡器未安裝或未設定」，表示發卡服務沒有回應：
   請檢查服務是否運行、讀卡器是否已連接。
3. 按提示把卡片放在讀卡器上。未偵測到卡片時，平台每 3 秒重試一次；寫卡中斷時會重新寫入。
   其他錯誤不會重試：請取下卡片，檢查後重新操作。
4. 門禁部署的設定順序：系統初始化（母卡）、刷主卡、系統密鑰卡、管理員登入卡，最後刷卡登入。
5. 請妥善鎖存母卡和系統密鑰卡：它們與客戶編號、客戶密碼一起保存著系統密鑰。
`;

/**
 * The demo's downloadable tools (DATA_DIR/tools): each file and tools.json are written only when
 * absent, so a customer's own files and list are never overwritten. Names and purposes are in the three
 * languages (the list answers the request's); the guides name the issuer address of `issuerUrl`.
 */
export function writeDemoTools(dataDir: string, issuerUrl: string): void {
  const dir = path.join(dataDir, 'tools');
  fs.mkdirSync(dir, { recursive: true });
  const files: Record<string, string> = {
    'card-reader-setup.txt': `Card reader set-up / 读卡器设置 / 讀卡器設定
=========================================

1. Install the card-issuer service on the operator PC (Tools page: "Card issuer").
   在操作员电脑上安装发卡服务（工具页面："发卡器"）。 在操作員電腦上安裝發卡服務（工具頁面：「發卡器」）。
2. Connect the reader by USB. 用 USB 连接读卡器。 用 USB 連接讀卡器。
3. Open ${issuerUrl}/reader to check that the reader answers.
   打开 ${issuerUrl}/reader 检查读卡器是否应答。 開啟 ${issuerUrl}/reader 檢查讀卡器是否回應。
`,
    'card-issuer-guide.txt': cardIssuerGuide(issuerUrl),
    'employee-import-template.csv': 'code,name,department,cardNo\nE0001,Sample Person,Head Office,00012345\n',
  };
  for (const [name, body] of Object.entries(files)) {
    const file = path.join(dir, name);
    if (!fs.existsSync(file)) fs.writeFileSync(file, body);
  }
  const list = path.join(dir, 'tools.json');
  if (!fs.existsSync(list)) {
    const tools = [
      {
        showName: { 'en-US': 'Card reader set-up guide', 'zh-CN': '读卡器设置指南', 'zh-MO': '讀卡器設定指南' },
        use: { 'en-US': 'Install and check the card reader on an operator PC', 'zh-CN': '在操作员电脑上安装并检查读卡器', 'zh-MO': '在操作員電腦上安裝並檢查讀卡器' },
        fileName: 'card-reader-setup.txt',
      },
      {
        showName: { 'en-US': 'Card issuer guide (English, 简体中文, 繁體中文)', 'zh-CN': '发卡服务指南（English、简体中文、繁體中文）', 'zh-MO': '發卡服務指南（English、简体中文、繁體中文）' },
        use: {
          'en-US': 'What the card-issuer service does, its messages and the gate set-up order',
          'zh-CN': '发卡服务的作用、提示信息和门禁设置顺序',
          'zh-MO': '發卡服務的作用、提示訊息和門禁設定順序',
        },
        fileName: 'card-issuer-guide.txt',
      },
      {
        showName: { 'en-US': 'Employee import template', 'zh-CN': '员工导入模板', 'zh-MO': '員工匯入範本' },
        use: { 'en-US': 'Template for importing employees and their cards', 'zh-CN': '用于导入员工及其卡片的模板', 'zh-MO': '用於匯入員工及其卡片的範本' },
        fileName: 'employee-import-template.csv',
      },
    ];
    fs.writeFileSync(list, `${JSON.stringify(tools, null, 2)}\n`);
  }
}


async function seedDemo(services: Services, config: Config): Promise<void> {
  // the demo's administrator card signs in alone on the swipe screen (and the tests that swipe it); the second
  // tenant keeps the default, the card with its card password
  await createTenant(services, '1001', { 'en-US': 'Demo Campus', 'zh-CN': '演示园区', 'zh-MO': '演示園區' }, undefined, 'card-alone');
  // A second skin, so the demo shows that the colour scheme follows the tenant.
  await createTenant(services, '1002', { 'en-US': 'Branch Campus', 'zh-CN': '分校园区', 'zh-MO': '分校園區' }, 'DASUI003');
  const { account, menu } = services;

  const sysadmin = await account.createUser({ tenantCode: '1001', account: 'sysadmin', name: 'System Administrator', password: 'Sysadmin#2026', isSystemAdmin: true, isInstallationAdmin: true, language: 'zh-CN' });
  await grantAll(services, sysadmin);

  const staff = await account.createUser({ tenantCode: '1001', account: 'staff', name: 'Staff Member', password: 'Staff#2026', language: 'en-US' });
  await menu.grant(staff, 'qy', ['1001000', '1001010', '1001020']);
  await menu.grant(staff, 'kq', ['1005000', '1005001']);

  const multiA = await account.createUser({ tenantCode: '1001', account: 'multi', name: 'Multi Tenant (Demo)', password: 'Multi#2026' });
  await menu.grant(multiA, 'qy', functionCodes('qy'));
  await menu.grant(multiA, 'mj', functionCodes('mj'));
  const multiB = await account.createUser({ tenantCode: '1002', account: 'multi', name: 'Multi Tenant (Branch)', password: 'Multi#2026' });
  await menu.grant(multiB, 'kq', functionCodes('kq'));
  await menu.grant(multiB, 'xf', functionCodes('xf'));

  await account.createUser({ tenantCode: '1001', account: 'nosub', name: 'No Sub-system', password: 'Nosub#2026' });

  const expired = await account.createUser({
    tenantCode: '1001',
    account: 'expired',
    name: 'Expired Password',
    password: 'Expired#2026',
    pwdEditReason: 2,
    pwdLockingTime: Date.parse('2026-01-01T00:00:00+08:00'),
  });
  await menu.grant(expired, 'qy', functionCodes('qy'));

  if (config.demoLicence) await addDemoLicence(services);
  for (const org of demoOrganisations()) {
    await services.enterprise.addDepartments(org.tenantCode, org.departments);
    await services.enterprise.addEmployees(org.tenantCode, org.employees);
  }
  writeDemoTools(config.dataDir, config.cardIssuerUrl);
}

/** The demo's customer number (an installation without CUSTOMER_NO outside production). */
export const demoCustomerNo = '10001';
/** Issued with the repository's test key (docs/licences.md): customer 10001, formal, 2026-01-01 to 2099-12-31, every system. */
export const demoLicenceFile = path.join(path.dirname(fileURLToPath(import.meta.url)), 'demo-licence.lic');

/** Uploads and activates the demo licence through the same service calls an administrator's upload takes. */
async function addDemoLicence(services: Services): Promise<void> {
  // an installation given another CUSTOMER_NO starts without it, as a customer's own would
  if ((await services.licence.customerInfo()).customerNo !== demoCustomerNo) return;
  const [result] = await services.licence.upload([{ fileName: path.basename(demoLicenceFile), bytes: fs.readFileSync(demoLicenceFile) }], null, 'en-US');
  if (!result?.ok || !result.id) throw new Error(`the demo licence was refused: ${result?.msg ?? 'no result'}`);
  await services.licence.activate(result.id, null);
}

/** A one-time password that meets the policy: 16 characters of letters, digits and a few symbols. */
export function oneTimePassword(): string {
  const chars = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789#%+=';
  for (;;) {
    let out = '';
    for (let i = 0; i < 16; i += 1) out += chars[randomInt(chars.length)];
    if (meetsPasswordPolicy(out)) return out;
  }
}

async function seedProduction(services: Services): Promise<SeedResult> {
  await createTenant(services, '1001', { 'en-US': 'Campus', 'zh-CN': '园区', 'zh-MO': '園區' });
  const password = oneTimePassword();
  const admin = await services.account.createUser({
    tenantCode: '1001',
    account: 'admin',
    name: 'System Administrator',
    password,
    isSystemAdmin: true,
    // the installation's first administrator, made by the operator's `campus init`: he uploads the licence
    isInstallationAdmin: true,
    isFirstLogin: true,
    pwdEditReason: 0,
  });
  await grantAll(services, admin);
  return { mode: 'production', admin: { account: 'admin', password, tenantCode: '1001' } };
}

/**
 * Seeds an empty database: the demo (tenants, accounts, licence, backup logs, departments and employees, tools) outside production, or one
 * tenant and a system administrator `admin` with a one-time password in production. Idempotent:
 * a database that has tenants is left alone (the catalogue is only added when missing).
 */
export async function seedDatabase(services: Services, config: Config): Promise<SeedResult> {
  await seedCatalogue(services);
  // production without CUSTOMER_NO gets an empty customer number: every licence is then for another installation
  await services.licence.ensureInstallation(config.customerNo, config.isProduction ? '' : demoCustomerNo);
  if (await services.account.hasTenants()) return { mode: 'existing' };
  if (config.isProduction) {
    const result = await seedProduction(services);
    await services.licence.markSeed('production');
    return result;
  }
  await seedDemo(services, config);
  await services.licence.markSeed('demo');
  return { mode: 'demo' };
}
