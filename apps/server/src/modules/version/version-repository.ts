import type { Insertable, Kysely, Selectable } from 'kysely';
import type { DB, ProgramVersionsTable } from '../../db/schema.ts';

export type ProgramVersionRecord = Selectable<ProgramVersionsTable>;

/** The latest version reported per address and program. */
export class VersionRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * Stores each row, replacing the version and time of the row of the same address and service name,
   * all in one transaction. One statement per row: a single multi-row upsert fails on PostgreSQL when
   * a request names the same program twice; this way the later one wins, as it does on SQLite.
   */
  async upsertAll(rows: Insertable<ProgramVersionsTable>[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const row of rows) {
        await trx
          .insertInto('program_versions')
          .values(row)
          .onConflict((oc) => oc.columns(['address', 'service_name']).doUpdateSet({ version: row.version, reported_at: row.reported_at }))
          .execute();
      }
    });
  }

  all(): Promise<ProgramVersionRecord[]> {
    return this.db.selectFrom('program_versions').selectAll().execute();
  }
}
