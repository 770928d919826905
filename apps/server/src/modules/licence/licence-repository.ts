import type { Insertable, Kysely, Selectable } from 'kysely';
import type { DB, LicencesTable } from '../../db/schema.ts';

export type LicenceRow = Selectable<LicencesTable>;

export class LicenceRepository {
  constructor(private readonly db: Kysely<DB>) {}

  all(): Promise<LicenceRow[]> {
    return this.db.selectFrom('licences').selectAll().orderBy('begin_time').execute();
  }

  async insert(row: Insertable<LicencesTable>): Promise<void> {
    await this.db.insertInto('licences').values(row).execute();
  }
}
