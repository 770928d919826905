import type { Kysely, Selectable } from 'kysely';
import type { DB, OssObjectsTable } from '../../db/schema.ts';

export type OssRow = Selectable<OssObjectsTable>;

export class OssRepository {
  constructor(private readonly db: Kysely<DB>) {}

  get(id: string): Promise<OssRow | undefined> {
    return this.db.selectFrom('oss_objects').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async put(row: OssRow): Promise<void> {
    await this.db
      .insertInto('oss_objects')
      .values(row)
      .onConflict((oc) => oc.column('id').doUpdateSet({ content_type: row.content_type, body: row.body }))
      .execute();
  }
}
