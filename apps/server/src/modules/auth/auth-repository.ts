import { sql } from 'kysely';
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { CaptchasTable, DB, LoginFailuresTable, SessionsTable } from '../../db/schema.ts';

export type SessionRow = Selectable<SessionsTable>;
export type FailureRow = Selectable<LoginFailuresTable>;
export type FailureScope = 'pair' | 'account' | 'address';

/** Sessions, captchas and sign-in failure counters. */
export class AuthRepository {
  /** `dialect`: how the failure counters are locked (lockFailures); SQLite's by default. */
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect = 'sqlite',
  ) {}

  // sessions
  async insertSession(row: Insertable<SessionsTable>): Promise<void> {
    await this.db.insertInto('sessions').values(row).execute();
  }

  session(tokenHash: string): Promise<SessionRow | undefined> {
    return this.db.selectFrom('sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  async touchSession(tokenHash: string, lastSeenAt: number, idleExpiresAt: number): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ last_seen_at: lastSeenAt, idle_expires_at: idleExpiresAt })
      .where('token_hash', '=', tokenHash)
      .execute();
  }

  async revokeSession(tokenHash: string, at: number): Promise<boolean> {
    const result = await this.db
      .updateTable('sessions')
      .set({ revoked_at: at })
      .where('token_hash', '=', tokenHash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Revokes every live session of a user; answers how many were revoked. */
  async revokeSessionsOfUser(userId: string, at: number): Promise<number> {
    const result = await this.db
      .updateTable('sessions')
      .set({ revoked_at: at })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async revokeSessionsOfCard(cardId: string, at: number): Promise<number> {
    const result = await this.db.updateTable('sessions').set({ revoked_at: at }).where('card_id', '=', cardId).where('revoked_at', 'is', null).executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Sessions of a tenant live at `now`: not revoked, neither idle nor absolute expiry reached. */
  async countLiveSessions(tenantCode: string, now: number): Promise<number> {
    const row = await this.db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('tenant_code', '=', tenantCode)
      .where('idle_expires_at', '>', now)
      .where('absolute_expires_at', '>', now)
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async deleteSessionsEndedBefore(time: number): Promise<void> {
    await this.db.deleteFrom('sessions').where('absolute_expires_at', '<', time).execute();
  }

  // captchas
  async putCaptcha(row: Insertable<CaptchasTable>): Promise<void> {
    await this.db
      .insertInto('captchas')
      .values(row)
      .onConflict((oc) => oc.column('key_hash').doUpdateSet({ answer_hash: row.answer_hash, expires_at: row.expires_at }))
      .execute();
  }

  /** Deletes and returns a captcha in one statement, so it can be used only once. */
  takeCaptcha(keyHash: string): Promise<Selectable<CaptchasTable> | undefined> {
    return this.db.deleteFrom('captchas').where('key_hash', '=', keyHash).returningAll().executeTakeFirst();
  }

  async deleteCaptchasExpiredBefore(time: number): Promise<void> {
    await this.db.deleteFrom('captchas').where('expires_at', '<', time).execute();
  }

  // failure counters

  /** Runs `work` in one transaction, with a repository over it. */
  transaction<T>(work: (repo: AuthRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new AuthRepository(trx, this.dialect)));
  }

  /**
   * Inside a transaction: no other transaction, in this process or another, reads or writes these counters
   * until this one ends, so a failure counted at once on two server nodes is counted twice, not once. PostgreSQL:
   * transaction advisory locks, taken in the order given (callers give one order: no deadlock), also for counters
   * without a row yet. SQLite: the transaction holds the database's write lock from its begin already.
   */
  async lockFailures(keys: readonly { scope: FailureScope; key: string }[]): Promise<void> {
    if (this.dialect !== 'postgres') return;
    for (const { scope, key } of keys) await sql`select pg_advisory_xact_lock(hashtextextended(${`login_failures|${scope}|${key}`}, 0))`.execute(this.db);
  }

  failure(scope: FailureScope, key: string): Promise<FailureRow | undefined> {
    return this.db.selectFrom('login_failures').selectAll().where('scope', '=', scope).where('key', '=', key).executeTakeFirst();
  }

  async putFailure(row: FailureRow): Promise<void> {
    await this.db
      .insertInto('login_failures')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['scope', 'key']).doUpdateSet({
          failures: row.failures,
          lock_count: row.lock_count,
          locked_until: row.locked_until,
          updated_at: row.updated_at,
          addresses: row.addresses,
        }),
      )
      .execute();
  }

  async deleteFailure(scope: FailureScope, key: string): Promise<void> {
    await this.db.deleteFrom('login_failures').where('scope', '=', scope).where('key', '=', key).execute();
  }
}
