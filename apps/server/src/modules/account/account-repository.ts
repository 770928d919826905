import type { Insertable, Kysely, Selectable } from 'kysely';
import type { DB, TenantsTable, UsersTable } from '../../db/schema.ts';

export type TenantRow = Selectable<TenantsTable>;
export type UserRow = Selectable<UsersTable>;

export class AccountRepository {
  constructor(private readonly db: Kysely<DB>) {}

  tenant(code: string): Promise<TenantRow | undefined> {
    return this.db.selectFrom('tenants').selectAll().where('code', '=', code).executeTakeFirst();
  }

  /** The default tenant: the lowest code. */
  firstTenant(): Promise<TenantRow | undefined> {
    return this.db.selectFrom('tenants').selectAll().orderBy('code').limit(1).executeTakeFirst();
  }

  countTenants(): Promise<number> {
    return this.db
      .selectFrom('tenants')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  }

  tenantsOfAccount(account: string): Promise<TenantRow[]> {
    return this.db
      .selectFrom('tenants')
      .innerJoin('users', 'users.tenant_code', 'tenants.code')
      .selectAll('tenants')
      .where('users.account', '=', account)
      .orderBy('tenants.code')
      .execute();
  }

  user(tenantCode: string, account: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('tenant_code', '=', tenantCode)
      .where('account', '=', account)
      .executeTakeFirst();
  }

  userById(id: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  usersByIds(ids: readonly string[]): Promise<UserRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('users').selectAll().where('id', 'in', [...ids]).execute();
  }

  systemAdminsOf(tenantCode: string): Promise<UserRow[]> {
    return this.db.selectFrom('users').selectAll().where('tenant_code', '=', tenantCode).where('is_system_admin', '=', 1).orderBy('account').execute();
  }

  /** The system administrators of every tenant. */
  allSystemAdmins(): Promise<UserRow[]> {
    return this.db.selectFrom('users').selectAll().where('is_system_admin', '=', 1).orderBy('tenant_code').orderBy('account').execute();
  }

  /** The oldest enabled system administrator of a tenant. */
  firstSystemAdmin(tenantCode: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('tenant_code', '=', tenantCode)
      .where('is_system_admin', '=', 1)
      .where('is_disabled', '=', 0)
      .orderBy('created_at')
      .orderBy('id')
      .executeTakeFirst();
  }

  /** The accounts marked installation administrator, of every tenant. */
  installationAdmins(): Promise<UserRow[]> {
    return this.db.selectFrom('users').selectAll().where('is_installation_admin', '=', 1).orderBy('tenant_code').orderBy('account').execute();
  }

  async setInstallationAdmin(userId: string, on: boolean): Promise<void> {
    await this.db.updateTable('users').set({ is_installation_admin: on ? 1 : 0 }).where('id', '=', userId).execute();
  }

  async insertTenant(row: Insertable<TenantsTable>): Promise<void> {
    await this.db.insertInto('tenants').values(row).execute();
  }

  /** Whether the tenant exists (its card sign-in is then `mode`). */
  async setCardLogin(code: string, mode: string): Promise<boolean> {
    const result = await this.db.updateTable('tenants').set({ card_login: mode }).where('code', '=', code).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async insertUser(row: Insertable<UsersTable>): Promise<void> {
    await this.db.insertInto('users').values(row).execute();
  }

  /** Stores the user's interface language (the picker's choice). True when the user exists. */
  async setLanguage(userId: string, language: string): Promise<boolean> {
    const result = await this.db.updateTable('users').set({ language }).where('id', '=', userId).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** An operator's reset: the new hash, to be changed at the next sign-in (as a first start's administrator). */
  async setOneTimePassword(userId: string, passwordHash: string, digestMode: string): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ password_hash: passwordHash, digest_mode: digestMode, pwd_edit_reason: 0, pwd_locking_time: null, is_first_login: 1 })
      .where('id', '=', userId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Replaces the password hash and clears every "must change the password" mark, only while the stored
   * hash is still `expectedHash` (a concurrent change makes this a no-op). True when the row changed.
   */
  async replacePassword(userId: string, expectedHash: string, passwordHash: string, digestMode: string): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ password_hash: passwordHash, digest_mode: digestMode, pwd_edit_reason: null, pwd_locking_time: null, is_first_login: 0 })
      .where('id', '=', userId)
      .where('password_hash', '=', expectedHash)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
