import type { Insertable, Kysely, Selectable } from 'kysely';
import type { DB, SubAppRegistrationsTable } from '../../db/schema.ts';

export type RegistrationRow = Selectable<SubAppRegistrationsTable>;

/** Where each registered sub-system loads from (the sub-app area's own table). */
export class SubAppRegistrationRepository {
  constructor(private readonly db: Kysely<DB>) {}

  all(): Promise<RegistrationRow[]> {
    return this.db.selectFrom('sub_app_registrations').selectAll().orderBy('app_no').execute();
  }

  byAppNo(appNo: string): Promise<RegistrationRow | undefined> {
    return this.db.selectFrom('sub_app_registrations').selectAll().where('app_no', '=', appNo).executeTakeFirst();
  }

  async insert(row: Insertable<SubAppRegistrationsTable>): Promise<void> {
    await this.db.insertInto('sub_app_registrations').values(row).execute();
  }

  async delete(appNo: string): Promise<void> {
    await this.db.deleteFrom('sub_app_registrations').where('app_no', '=', appNo).execute();
  }
}
