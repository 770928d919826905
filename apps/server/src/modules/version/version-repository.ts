import type { Insertable, Kysely, Selectable } from 'kysely';
import type { DB, ProgramVersionsTable } from '../../db/schema.ts';

export type ProgramVersionRecord = Selectable<ProgramVersionsTable>;

/** The latest version reported per program (service name), with the address it was reported from. */
export class VersionRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * Stores each row in place of the row of the same service name, all in one transaction. One statement per
   * row: a single multi-row upsert fails on PostgreSQL when a request names the same program twice.
   */
  async upsertAll(rows: Insertable<ProgramVersionsTable>[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const row of rows) {
        await trx
          .insertInto('program_versions')
          .values(row)
          .onConflict((oc) => oc.column('service_name').doUpdateSet({ address: row.address, version: row.version, reported_at: row.reported_at }))
          .execute();
      }
    });
  }

  /** Rows by service name, then address; `offset`/`limit` page them. */
  page(offset: number, limit: number): Promise<ProgramVersionRecord[]> {
    return this.db.selectFrom('program_versions').selectAll().orderBy('service_name').orderBy('address').offset(offset).limit(limit).execute();
  }

  async count(): Promise<number> {
    const row = await this.db.selectFrom('program_versions').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async servicesAt(address: string): Promise<string[]> {
    return (await this.db.selectFrom('program_versions').select('service_name').where('address', '=', address).execute()).map((r) => r.service_name);
  }
}
