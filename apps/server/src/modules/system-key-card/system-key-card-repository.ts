import { sql } from 'kysely';
import type { Kysely, Selectable, SelectQueryBuilder, SqlBool } from 'kysely';
import { codes } from '@campus/contracts';
import type { DB, SystemKeyCardsTable } from '../../db/schema.ts';
import { isUniqueViolationOf, refusingDuplicates } from '../../db/unique-violation.ts';
import { AppError } from '../../http/envelope.ts';
import { cardStates } from '../card-primitives/card-states.ts';
import { containsText } from '../card-primitives/card-search.ts';
import type { CardSearch } from '../card-primitives/card-search.ts';

export type SystemKeyCardRow = Selectable<SystemKeyCardsTable>;

/** The one who holds the system key card in use: the installation. */
const installation = { 'en-US': 'this installation', 'zh-CN': '本系统', 'zh-MO': '本系統' };

/** cardAlreadyExists (239): the installation has a system key card in use already (one at a time; a unique index keeps it). */
export const keyCardInUse = () => new AppError(codes.cardAlreadyExists, { values: { holder: installation } });

export class SystemKeyCardRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** The card a fixed number holds now: its latest issue (a recycled card issued again keeps a row per issue). */
  byFixedNo(fixedNo: string): Promise<SystemKeyCardRow | undefined> {
    return this.db.selectFrom('system_key_cards').selectAll().where('fixed_no', '=', fixedNo).orderBy('issue_seq', 'desc').orderBy('created_at', 'desc').limit(1).executeTakeFirst();
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
      keyCardInUse,
    );
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * A card issued onto a fixed number: a new row, also when the number held a key card that was recycled (that row
   * stays, as history). Unique indexes refuse a second key card in use and a second live card of the number.
   */
  async insertIssued(row: SystemKeyCardRow): Promise<void> {
    await refusingDuplicates(
      () => this.db.insertInto('system_key_cards').values(row).execute(),
      (error) => (isUniqueViolationOf(error, 'fixed_no') ? new AppError(codes.cardAlreadyRegistered) : keyCardInUse()),
    );
  }
}
