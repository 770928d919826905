import type { Kysely, Selectable } from 'kysely';
import type { DB, SystemKeyCardsTable } from '../../db/schema.ts';
import { issuedStates } from '../card-write/card-states.ts';

export type SystemKeyCardRow = Selectable<SystemKeyCardsTable>;

export class SystemKeyCardRepository {
  constructor(private readonly db: Kysely<DB>) {}

  byFixedNo(fixedNo: string): Promise<SystemKeyCardRow | undefined> {
    return this.db.selectFrom('system_key_cards').selectAll().where('fixed_no', '=', fixedNo).executeTakeFirst();
  }

  async anyIssued(): Promise<boolean> {
    const row = await this.db.selectFrom('system_key_cards').select('id').where('state', 'in', [...issuedStates]).executeTakeFirst();
    return row !== undefined;
  }

  byId(id: string): Promise<SystemKeyCardRow | undefined> {
    return this.db.selectFrom('system_key_cards').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Moves the card to `to` while it is still in one of `from`; answers whether it moved. */
  async transition(id: string, from: readonly number[], to: number, at: number): Promise<boolean> {
    const result = await this.db.updateTable('system_key_cards').set({ state: to, updated_at: at }).where('id', '=', id).where('state', 'in', [...from]).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** A card issued onto a fixed number: a new row, or the recycled row of that number issued again. */
  async upsertIssued(row: SystemKeyCardRow): Promise<void> {
    await this.db
      .insertInto('system_key_cards')
      .values(row)
      .onConflict((oc) => oc.column('fixed_no').doUpdateSet({ state: row.state, issue_seq: row.issue_seq, updated_at: row.updated_at }))
      .execute();
  }
}
