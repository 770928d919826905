import type { Kysely } from 'kysely';
import type { CardLoginMode, DigestMode, LanguageCode, Localised, PasswordComplexity, SkinCode, TenantEntry, UserInfo, UserSettings } from '@campus/contracts';
import { defaultSkin, passwordLength, toLanguage } from '@campus/contracts';
import type { DB } from '../../db/schema.ts';
import type { SessionInfo } from '../../http/types.ts';
import { newId } from '../../lib/hash.ts';
import { pickLocalised, toLocalisedJson } from '../../lib/localised.ts';
import { AccountRepository } from './account-repository.ts';
import type { TenantRow, UserRow } from './account-repository.ts';
import { hashDigest, passwordDigest, passwordPolicySource, verifyAgainstDummy, verifyDigest } from './password.ts';

export interface NewTenant {
  code: string;
  name: Localised;
  systemName: Localised;
  headerLogoId?: string | null;
  loginLogoId?: string | null;
  loginBgId?: string | null;
  systemLogoId?: string | null;
  /** Main-layout colour scheme (default DASUI001). */
  skin?: SkinCode;
  /** How its administrators sign in with their card (default: with the card password). */
  cardLogin?: CardLoginMode;
}

export interface NewUser {
  tenantCode: string;
  account: string;
  name: string;
  /** The plain password; stored as argon2id of its digest in the deployment's digest mode. */
  password: string;
  isSystemAdmin?: boolean;
  /** Installation administrator (only the seed and the operator's command set it). */
  isInstallationAdmin?: boolean;
  isFirstLogin?: boolean;
  pwdEditReason?: number | null;
  pwdLockingTime?: number | null;
  language?: LanguageCode;
  utcDiff?: number;
}

const { min, max } = passwordLength;
const passwordTips: Localised = {
  'en-US': `The password must be ${min} to ${max} characters with at least one digit and one letter; special characters are allowed; no space at the start or the end`,
  'zh-CN': `密码长度为 ${min} 到 ${max} 位，至少包含一个数字和一个字母，可包含特殊字符，首尾不能有空格`,
  'zh-MO': `密碼長度為 ${min} 到 ${max} 位，至少包含一個數字和一個字母，可包含特殊字元，首尾不能有空格`,
};

/** The password policy in words (spec §5), in the caller's language. */
export function passwordTip(language: LanguageCode): string {
  return passwordTips[language];
}

/** The mark counts only on an enabled system administrator (a mark left on an account that lost the role gives nothing). */
export function isInstallationAdmin(user: UserRow): boolean {
  return user.is_installation_admin === 1 && user.is_system_admin === 1 && user.is_disabled === 0;
}

export interface AccountServiceDeps {
  repo: AccountRepository;
  digestMode: DigestMode;
  now: () => number;
}

/** Tenants and user accounts. Other areas use this service, never the tables. */
export class AccountService {
  private readonly repo: AccountRepository;
  private readonly digestMode: DigestMode;
  private readonly now: () => number;

  constructor(deps: AccountServiceDeps) {
    this.repo = deps.repo;
    this.digestMode = deps.digestMode;
    this.now = deps.now;
  }

  /** The same service over `db`, a transaction: its writes land with the transaction's others. */
  over(db: Kysely<DB>): AccountService {
    return new AccountService({ repo: new AccountRepository(db), digestMode: this.digestMode, now: this.now });
  }

  tenant(code: string): Promise<TenantRow | undefined> {
    return this.repo.tenant(code);
  }

  defaultTenant(): Promise<TenantRow | undefined> {
    return this.repo.firstTenant();
  }

  /** The tenant named by a tenantCode header when it exists, else the default tenant. */
  async tenantOrDefault(code: string | undefined): Promise<TenantRow | undefined> {
    if (code) {
      const tenant = await this.repo.tenant(code);
      if (tenant) return tenant;
    }
    return this.repo.firstTenant();
  }

  async hasTenants(): Promise<boolean> {
    return (await this.repo.countTenants()) > 0;
  }

  tenantEntry(tenant: TenantRow, language: LanguageCode): TenantEntry {
    return { code: tenant.code, name: pickLocalised(tenant.name_i18n, language) };
  }

  async tenantsOfAccount(account: string): Promise<TenantRow[]> {
    return this.repo.tenantsOfAccount(account);
  }

  findUser(tenantCode: string, account: string): Promise<UserRow | undefined> {
    return this.repo.user(tenantCode, account);
  }

  /** The ids of the system administrators of every tenant (they hold every system). */
  async systemAdminIds(): Promise<string[]> {
    return (await this.repo.allSystemAdmins()).map((u) => u.id);
  }

  userById(id: string): Promise<UserRow | undefined> {
    return this.repo.userById(id);
  }

  /** Checks a browser digest; spends the same time when there is no such user. */
  async checkPassword(user: UserRow | undefined, digest: string): Promise<boolean> {
    if (!user) return verifyAgainstDummy(digest);
    const matches = await verifyDigest(user.password_hash, digest);
    return matches && user.digest_mode === this.digestMode;
  }

  /** Gives a user a one-time password that must be changed at the next sign-in (`campus admin reset-password`). */
  async resetToOneTimePassword(userId: string, password: string): Promise<boolean> {
    return this.repo.setOneTimePassword(userId, await hashDigest(passwordDigest(password, this.digestMode)), this.digestMode);
  }

  async createTenant(input: NewTenant): Promise<void> {
    await this.repo.insertTenant({
      code: input.code,
      name_i18n: toLocalisedJson(input.name),
      system_name_i18n: toLocalisedJson(input.systemName),
      header_logo_id: input.headerLogoId ?? null,
      login_logo_id: input.loginLogoId ?? null,
      login_bg_id: input.loginBgId ?? null,
      system_logo_id: input.systemLogoId ?? null,
      skin: input.skin ?? defaultSkin,
      created_at: this.now(),
      ...(input.cardLogin ? { card_login: input.cardLogin } : {}),
    });
  }

  /** Sets the tenant's card sign-in; false when there is no such tenant. */
  setCardLoginMode(tenantCode: string, mode: CardLoginMode): Promise<boolean> {
    return this.repo.setCardLogin(tenantCode, mode);
  }

  async createUser(input: NewUser): Promise<string> {
    const id = newId();
    await this.repo.insertUser({
      id,
      tenant_code: input.tenantCode,
      account: input.account,
      name: input.name,
      password_hash: await hashDigest(passwordDigest(input.password, this.digestMode)),
      digest_mode: this.digestMode,
      is_system_admin: input.isSystemAdmin ? 1 : 0,
      is_installation_admin: input.isInstallationAdmin ? 1 : 0,
      is_disabled: 0,
      is_first_login: input.isFirstLogin ? 1 : 0,
      pwd_edit_reason: input.pwdEditReason ?? null,
      pwd_locking_time: input.pwdLockingTime ?? null,
      language: input.language ?? 'zh-CN',
      utc_diff: input.utcDiff ?? 480,
      created_at: this.now(),
    });
    return id;
  }

  /** Display names by user id (for tables that show who holds something). */
  async namesByIds(ids: readonly string[]): Promise<Map<string, string>> {
    return new Map((await this.repo.usersByIds([...new Set(ids)])).map((user) => [user.id, user.name]));
  }

  systemAdminsOf(tenantCode: string): Promise<UserRow[]> {
    return this.repo.systemAdminsOf(tenantCode);
  }

  /** The super administrator of a gate deployment: the oldest system administrator of the default tenant. */
  async superAdmin(): Promise<UserRow | undefined> {
    const tenant = await this.defaultTenant();
    return tenant ? this.repo.firstSystemAdmin(tenant.code) : undefined;
  }

  async isSystemAdmin(userId: string): Promise<boolean> {
    const user = await this.repo.userById(userId);
    return user?.is_system_admin === 1;
  }

  /**
   * Whether the account may change what the whole installation serves over HTTP (sub-app registrations, licences):
   * a system administrator the operator marked (campus admin installation-admin). A tenant's system administrator
   * alone governs only his tenant.
   */
  async isInstallationAdmin(userId: string): Promise<boolean> {
    const user = await this.repo.userById(userId);
    return user !== undefined && isInstallationAdmin(user);
  }

  /** The installation administrators of every tenant (campus admin installation-admin --list). */
  installationAdmins(): Promise<UserRow[]> {
    return this.repo.installationAdmins();
  }

  /** Only the operator's command on the server calls this: no HTTP route sets or clears the mark. */
  setInstallationAdmin(userId: string, on: boolean): Promise<void> {
    return this.repo.setInstallationAdmin(userId, on);
  }

  async userInfo(session: SessionInfo, language: LanguageCode): Promise<Omit<UserInfo, 'mayManageCards'> | undefined> {
    const user = await this.repo.userById(session.userId);
    if (!user) return undefined;
    const tenant = await this.repo.tenant(user.tenant_code);
    return {
      id: user.id,
      code: user.account,
      isFirstLogin: user.is_first_login === 1,
      name: user.name,
      loginTime: session.createdAt,
      oprtPwdEditReason: user.pwd_edit_reason,
      lockingTime: user.pwd_locking_time,
      isSystemAdmin: user.is_system_admin === 1,
      tenantCode: user.tenant_code,
      tenantName: tenant ? pickLocalised(tenant.name_i18n, language) : '',
      loginType: session.loginType,
      cardId: session.cardId,
    };
  }

  async userSettings(userId: string): Promise<UserSettings | undefined> {
    const user = await this.repo.userById(userId);
    if (!user) return undefined;
    return { language: toLanguage(user.language), timeZone: { utcDiff: user.utc_diff } };
  }

  /** Keeps the language the user chose in the shell as the user's setting (what userSettings answers next). */
  setLanguage(userId: string, language: LanguageCode): Promise<boolean> {
    return this.repo.setLanguage(userId, language);
  }

  /** The policy as the browser checks it; `sealKey` is the installation's password-seal key. */
  passwordComplexity(language: LanguageCode, sealKey: string): PasswordComplexity {
    return { regex: Buffer.from(passwordPolicySource, 'utf8').toString('base64'), tip: passwordTips[language], sealKey };
  }

  /** The digest mode of this deployment (sha256, or sm3 on gate deployments). */
  get deploymentDigestMode(): DigestMode {
    return this.digestMode;
  }

  /** Hashes a new password digest (argon2id) for replacePassword; slow, so done outside any transaction. */
  hashNewDigest(digest: string): Promise<string> {
    return hashDigest(digest);
  }

  /** Whether a digest matches the user's stored hash (no digest-mode check: used for "same as now"). */
  matchesStoredHash(user: UserRow, digest: string): Promise<boolean> {
    return verifyDigest(user.password_hash, digest);
  }

  /**
   * Stores a new password hash in the deployment's digest mode and clears the forced-change marks
   * (pwd_edit_reason, pwd_locking_time, is_first_login); false when the hash changed meanwhile.
   */
  replacePassword(user: UserRow, newHash: string): Promise<boolean> {
    return this.repo.replacePassword(user.id, user.password_hash, newHash, this.digestMode);
  }
}
