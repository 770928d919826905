import { sql } from 'kysely';
import type { Kysely, Selectable, SelectQueryBuilder, SqlBool } from 'kysely';
import { codes } from '@campus/contracts';
import type { DB, SystemKeyCardsTable } from '../../db/schema.ts';
import { refusingDuplicates } from '../../db/unique-violation.ts';
import { AppError } from '../../http/envelope.ts';
import { cardStates, issuedStates } from '../card-primitives/card-states.ts';
import { containsText } from '../card-primitives/card-search.ts';
import type { CardSearch } from '../card-primitives/card-search.ts';

export type SystemKeyCardRow = Selectable<SystemKeyCardsTable>;

/** One system key card in use (a unique index keeps it): the refusal of a second. */
const cardAlreadyExists = () => new AppError(codes.cardAlreadyExists);

export class SystemKeyCardRepository {
  constructor(private readonly db: Kysely<DB>) {}

  byFixedNo(fixedNo: string): Promise<SystemKeyCardRow | undefined> {
    return this.db.selectFrom('system_key_cards').selectAll().where('fixed_no', '=', fixedNo).executeTakeFirst();
  }

  async anyIssued(): Promise<boolean> {
    const row = await this.db.selectFrom('system_key_cards').select('id').where('state', 'in', [...issuedStates]).executeTakeFirst();
    return row !== undefined;
  }

  async anyInUse(): Promise<boolean> {
    const row = await this.db.selectFrom('system_key_cards').select('id').where('state', '=', cardStates.inUse).executeTakeFirst();
    return row !== undefined;
  }

  private matching<O>(query: SelectQueryBuilder<DB, 'system_key_cards', O>, search: CardSearch): SelectQueryBuilder<DB, 'system_key_cards', O> {
    let q = query;
    if (search.kinds !== undefined) q = search.kinds.length === 0 ? q.where(sql<SqlBool>`1 = 0`) : q.where('kind_num', 'in', search.kinds);
    if (search.states !== undefined) q = search.states.length === 0 ? q.where(sql<SqlBool>`1 = 0`) : q.where('state', 'in', search.states);
    const like = search.like;
    if (like !== undefined) q = q.where(containsText('fixed_no', like));
    return q;
  }

  page(search: CardSearch): Promise<SystemKeyCardRow[]> {
    let q = this.matching(this.db.selectFrom('system_key_cards').selectAll(), search);
    // key cards have no card number: that order falls back to the time of issue
    for (const order of search.order) q = q.orderBy(order.column === 'card_num' ? 'created_at' : order.column, order.asc ? 'asc' : 'desc');
    return q.orderBy('id').offset(search.offset).limit(search.limit).execute();
  }

  async count(search: CardSearch): Promise<number> {
    const row = await this.matching(this.db.selectFrom('system_key_cards').select((eb) => eb.fn.countAll<number | string>().as('n')), search).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  byId(id: string): Promise<SystemKeyCardRow | undefined> {
    return this.db.selectFrom('system_key_cards').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Moves the card to `to` while it is still in one of `from`; answers whether it moved. */
  async transition(id: string, from: readonly number[], to: number, at: number): Promise<boolean> {
    const result = await refusingDuplicates(
      () => this.db.updateTable('system_key_cards').set({ state: to, updated_at: at }).where('id', '=', id).where('state', 'in', [...from]).executeTakeFirst(),
      cardAlreadyExists,
    );
    return Number(result.numUpdatedRows) === 1;
  }

  /** A card issued onto a fixed number: a new row, or the recycled row of that number issued again. */
  async upsertIssued(row: SystemKeyCardRow): Promise<void> {
    await refusingDuplicates(
      () =>
        this.db
          .insertInto('system_key_cards')
          .values(row)
          .onConflict((oc) => oc.column('fixed_no').doUpdateSet({ state: row.state, issue_seq: row.issue_seq, updated_at: row.updated_at }))
          .execute(),
      cardAlreadyExists,
    );
  }
}
