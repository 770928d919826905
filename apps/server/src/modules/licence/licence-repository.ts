import type { Insertable, Kysely, Selectable } from 'kysely';
import { licenceStates } from '@campus/contracts';
import { installationRowId } from '../../db/schema.ts';
import type { DB, InstallationTable, LicencesTable } from '../../db/schema.ts';

export type LicenceRecord = Selectable<LicencesTable>;
export type InstallationRecord = Selectable<InstallationTable>;

/** PostgreSQL answers bigint columns as strings; every number leaves this repository as a number. */
function numeric(row: LicenceRecord): LicenceRecord {
  const n = (v: number | null) => (v === null ? null : Number(v));
  return { ...row, begin_time: n(row.begin_time), end_time: n(row.end_time), activate_time: n(row.activate_time), created_at: Number(row.created_at), emp_count: Number(row.emp_count) };
}

export class LicenceRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Every licence, newest first. */
  async all(): Promise<LicenceRecord[]> {
    return (await this.db.selectFrom('licences').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').execute()).map(numeric);
  }

  /** The licence in effect (state normal), if any: the one row the per-request licence check needs. */
  async active(): Promise<LicenceRecord | undefined> {
    const row = await this.db.selectFrom('licences').selectAll().where('state', '=', licenceStates.normal).executeTakeFirst();
    return row && numeric(row);
  }

  async page(offset: number, size: number): Promise<LicenceRecord[]> {
    const rows = await this.db.selectFrom('licences').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').offset(offset).limit(size).execute();
    return rows.map(numeric);
  }

  async count(): Promise<number> {
    const row = await this.db.selectFrom('licences').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async byId(id: string): Promise<LicenceRecord | undefined> {
    const row = await this.db.selectFrom('licences').selectAll().where('id', '=', id).executeTakeFirst();
    return row && numeric(row);
  }

  async byCode(code: string): Promise<LicenceRecord | undefined> {
    const row = await this.db.selectFrom('licences').selectAll().where('code', '=', code).executeTakeFirst();
    return row && numeric(row);
  }

  async hasTrial(): Promise<boolean> {
    return (await this.db.selectFrom('licences').select('id').where('is_trial', '=', 1).executeTakeFirst()) !== undefined;
  }

  /** Inserts unless the code is taken; true when inserted. */
  async insertIfCodeFree(row: Insertable<LicencesTable>): Promise<boolean> {
    const result = await this.db.insertInto('licences').values(row).onConflict((oc) => oc.column('code').doNothing()).executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /**
   * Runs `work` in one transaction, with this repository and the transaction (for the operation log entry that goes
   * with a change): everything it writes is kept, or nothing is.
   */
  transaction<T>(work: (repo: LicenceRepository, trx: Kysely<DB>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new LicenceRepository(trx), trx));
  }

  /** Marks the licence in effect, unless it is `id`, replaced (6): the first half of an activation. */
  async replaceActive(id: string): Promise<void> {
    await this.db.updateTable('licences').set({ state: 6 }).where('state', '=', 5).where('id', '!=', id).execute();
  }

  /** Puts `id` in effect (5): the second half. Call both in one `transaction`: a crash between them leaves none in effect. */
  async putInEffect(id: string, at: number): Promise<void> {
    await this.db.updateTable('licences').set({ state: 5, activate_time: at }).where('id', '=', id).execute();
  }

  /** Takes `customerNo` for an installation that has none yet (true when it did). */
  async adoptCustomerNo(customerNo: string): Promise<boolean> {
    const result = await this.db.updateTable('installation').set({ customer_no: customerNo }).where('id', '=', installationRowId).where('customer_no', '=', '').executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async installation(): Promise<InstallationRecord | undefined> {
    const row = await this.db.selectFrom('installation').selectAll().where('id', '=', installationRowId).executeTakeFirst();
    return row && { ...row, latest_seen: Number(row.latest_seen), created_at: Number(row.created_at) };
  }

  async insertInstallationIfAbsent(row: Omit<InstallationRecord, 'id' | 'seed'>): Promise<void> {
    await this.db.insertInto('installation').values({ id: installationRowId, ...row }).onConflict((oc) => oc.column('id').doNothing()).execute();
  }

  async setSeed(seed: 'demo' | 'production'): Promise<void> {
    await this.db.updateTable('installation').set({ seed }).where('id', '=', installationRowId).execute();
  }

  async setCustomerNo(customerNo: string): Promise<void> {
    await this.db.updateTable('installation').set({ customer_no: customerNo }).where('id', '=', installationRowId).execute();
  }

  /** Raises the latest time seen to `now` (never lowers it: concurrent servers race harmlessly). */
  async raiseLatestSeen(now: number): Promise<void> {
    await this.db.updateTable('installation').set({ latest_seen: now }).where('id', '=', installationRowId).where('latest_seen', '<', now).execute();
  }
}
