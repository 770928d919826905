import type { Kysely, Selectable } from 'kysely';
import type { DB, OssObjectsTable } from '../../db/schema.ts';

export type OssRow = Selectable<OssObjectsTable>;

export class OssRepository {
  constructor(private readonly db: Kysely<DB>) {}

  get(id: string): Promise<OssRow | undefined> {
    return this.db.selectFrom('oss_objects').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Stores `rows` and removes `gone` together: a picture and its other encodings change as one. */
  async putAll(rows: OssRow[], gone: string[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (gone.length > 0) await trx.deleteFrom('oss_objects').where('id', 'in', gone).execute();
      for (const row of rows) {
        await trx
          .insertInto('oss_objects')
          .values(row)
          .onConflict((oc) => oc.column('id').doUpdateSet({ content_type: row.content_type, body: row.body }))
          .execute();
      }
    });
  }
}
