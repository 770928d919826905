import { sql } from 'kysely';
import type { CompiledQuery, Insertable, Kysely, Selectable } from 'kysely';
import type { ChangeStamps } from '../../db/change-stamps.ts';
import { changeStampsRowId } from '../../db/change-stamps.ts';
import type { Dialect } from '../../db/database.ts';
import type { InstallationSnapshot } from '../../http/types.ts';
import { installationRowId } from '../../db/schema.ts';
import type { CaptchasTable, DB, LoginFailuresTable, SessionsTable } from '../../db/schema.ts';

export type SessionRow = Selectable<SessionsTable>;

/** A session row with what every signed-in call checks besides it, read in the same statement. */
export interface SessionRead {
  row: SessionRow;
  stamps: ChangeStamps | null;
  installation: InstallationSnapshot | null;
}

type SessionReadRow = SessionRow & {
  licences_stamp: number | null;
  grants_stamp: number | null;
  catalogue_stamp: number | null;
  customer_no: string | null;
  latest_seen: number | null;
};
export type FailureRow = Selectable<LoginFailuresTable>;

/** An ended session's row is deleted this long after its absolute expiry (pruneEndedSessions). */
const endedSessionKeptMs = 24 * 3600_000;
export type FailureScope = 'pair' | 'account' | 'address';

/** Sessions, captchas and sign-in failure counters. */
export class AuthRepository {
  /** `dialect`: how the failure counters are locked (lockFailures); SQLite's by default. */
  constructor(
    /** The executor it runs on: the database, or a transaction (over). */
    readonly db: Kysely<DB>,
    private readonly dialect: Dialect = 'sqlite',
  ) {}

  /** The same repository over `db`, a transaction. */
  over(db: Kysely<DB>): AuthRepository {
    return new AuthRepository(db, this.dialect);
  }

  /**
   * The statement every signed-in call runs: built and compiled at its first use (its only parameter is the token
   * hash), since compiling it again per call cost as much as running it. Not at construction: a repository is made
   * for every transaction, and most never read a session.
   */
  private sessionReadQuery: CompiledQuery<SessionReadRow> | null = null;

  private compileSessionRead(): CompiledQuery<SessionReadRow> {
    const compiled = this.db
      .selectFrom('sessions')
      .leftJoin('change_stamps', (join) => join.on('change_stamps.id', '=', sql.lit(changeStampsRowId)))
      .leftJoin('installation', (join) => join.on('installation.id', '=', sql.lit(installationRowId)))
      .selectAll('sessions')
      .select([
        'change_stamps.licences as licences_stamp',
        'change_stamps.grants as grants_stamp',
        'change_stamps.catalogue as catalogue_stamp',
        'installation.customer_no',
        'installation.latest_seen',
      ])
      .where('sessions.token_hash', '=', '')
      .compile();
    if (compiled.parameters.length !== 1) throw new Error('the session read must have the token hash as its only parameter');
    return compiled;
  }

  // sessions
  /** Sessions not revoked and not idle-expired at `now` (the metrics gauge; ended rows are pruned after a day). */
  async countActiveSessions(now: number): Promise<number> {
    const row = await this.db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('revoked_at', 'is', null)
      .where('idle_expires_at', '>', now)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async insertSession(row: Insertable<SessionsTable>): Promise<void> {
    await this.db.insertInto('sessions').values(row).execute();
  }

  /** The session of `tokenHash` with the change stamps and the installation's identity and clock, in one statement. */
  async sessionRead(tokenHash: string): Promise<SessionRead | undefined> {
    this.sessionReadQuery ??= this.compileSessionRead();
    const { rows } = await this.db.executeQuery<SessionReadRow>({ ...this.sessionReadQuery, parameters: [tokenHash] });
    const found = rows[0];
    if (!found) return undefined;
    const { licences_stamp, grants_stamp, catalogue_stamp, customer_no, latest_seen, ...row } = found;
    return {
      row,
      // without the stamps' row (removed by hand) nothing read with a stamp is trusted: callers read the data itself
      stamps: licences_stamp === null || grants_stamp === null || catalogue_stamp === null ? null : { licences: Number(licences_stamp), grants: Number(grants_stamp), catalogue: Number(catalogue_stamp) },
      installation: customer_no === null || latest_seen === null ? null : { customerNo: customer_no, latestSeen: Number(latest_seen) },
    };
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

  /** Removes every session row, live or ended; answers how many there were. */
  async deleteAllSessions(): Promise<number> {
    const result = await this.db.deleteFrom('sessions').executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Sessions a day past their absolute expiry (SessionService.pruneEnded runs it now and then). */
  async pruneEndedSessions(now: number): Promise<void> {
    await this.db.deleteFrom('sessions').where('absolute_expires_at', '<', now - endedSessionKeptMs).execute();
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
