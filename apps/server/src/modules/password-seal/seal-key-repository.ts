import type { Kysely, Selectable } from 'kysely';
import type { DB, ServerKeysTable } from '../../db/schema.ts';

export type ServerKeyRow = Selectable<ServerKeysTable>;

/** The installation's own key pairs (table server_keys), one row per purpose. */
export class SealKeyRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * Stores the pair unless a pair of that name exists, then reads back the stored one: every server
   * process on a shared database ends up with the same pair, whichever inserted first.
   */
  async insertIfAbsentThenRead(row: ServerKeyRow): Promise<ServerKeyRow> {
    await this.db
      .insertInto('server_keys')
      .values(row)
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    return this.db.selectFrom('server_keys').selectAll().where('name', '=', row.name).executeTakeFirstOrThrow();
  }

  find(name: string): Promise<ServerKeyRow | undefined> {
    return this.db.selectFrom('server_keys').selectAll().where('name', '=', name).executeTakeFirst();
  }
}
