import { PostgresAdapter, sql } from 'kysely';
import type { Kysely, Selectable, SelectQueryBuilder, SqlBool } from 'kysely';
import type { AdminLoginCardsTable, DB } from '../../db/schema.ts';
import { isUniqueViolationOf, refusingDuplicates } from '../../db/unique-violation.ts';
import { cardStates } from '../card-primitives/card-states.ts';
import { containsPattern } from '../../db/contains-pattern.ts';
import type { CardSearch } from '../card-primitives/card-search.ts';

export type AdminLoginCardRow = Selectable<AdminLoginCardsTable>;

/** Up to this many matches, a text search on SQLite makes its page from the matches themselves (see search). */
const fewTextMatches = 1000;

/** What likeSearch looks in: the fixed number, the login name and the card number, lower-case. */
export function cardSearchText(card: { fixed_no: string; oprt_no: string; card_num: number }): string {
  return `${card.fixed_no} ${card.oprt_no} ${card.card_num}`.toLowerCase();
}

export class AdminLoginCardRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * The card a fixed number holds now: its latest issue. A card recycled and issued again keeps a row per issue (the
   * table shows its history); the issue number grows from one issue to the next, so an older image is never current.
   */
  byFixedNo(fixedNo: string): Promise<AdminLoginCardRow | undefined> {
    return this.db.selectFrom('admin_login_cards').selectAll().where('fixed_no', '=', fixedNo).orderBy('issue_seq', 'desc').orderBy('created_at', 'desc').limit(1).executeTakeFirst();
  }

  byId(id: string): Promise<AdminLoginCardRow | undefined> {
    return this.db.selectFrom('admin_login_cards').selectAll().where('id', '=', id).executeTakeFirst();
  }

  ofUser(userId: string): Promise<AdminLoginCardRow[]> {
    return this.db.selectFrom('admin_login_cards').selectAll().where('user_id', '=', userId).orderBy('card_num').execute();
  }

  async superAdminCardIn(states: readonly number[]): Promise<boolean> {
    const row = await this.db.selectFrom('admin_login_cards').select('id').where('is_super_admin', '=', 1).where('state', 'in', [...states]).executeTakeFirst();
    return row !== undefined;
  }

  async nextCardNum(): Promise<number> {
    const row = await this.db.selectFrom('admin_login_cards').select((eb) => eb.fn.max('card_num').as('top')).executeTakeFirst();
    return Number(row?.top ?? 0) + 1;
  }

  /**
   * A card issued onto a fixed number: a new row, also when the number held a card that was recycled (that row stays,
   * as history). Unique indexes refuse a second card in use of the holder (`holderHasCard`) and a second live card
   * of the number (`cardTaken`), so two confirms at once cannot both land.
   */
  async insertIssued(card: Omit<AdminLoginCardRow, 'search_text'>, refusals: { holderHasCard: () => Error; cardTaken: () => Error }): Promise<void> {
    const row = { ...card, search_text: cardSearchText(card) };
    await refusingDuplicates(
      () => this.db.insertInto('admin_login_cards').values(row).execute(),
      (error) => (isUniqueViolationOf(error, 'fixed_no') ? refusals.cardTaken() : refusals.holderHasCard()),
    );
  }

  /**
   * The tenant's cards in use, locked until the transaction ends on PostgreSQL (SQLite's transactions take the write
   * lock at their start): a check of the last card in use and the change it allows are one step.
   */
  inUseOfTenantLocked(tenantCode: string): Promise<Pick<AdminLoginCardRow, 'id' | 'fixed_no'>[]> {
    const query = this.db.selectFrom('admin_login_cards').select(['id', 'fixed_no']).where('tenant_code', '=', tenantCode).where('state', '=', cardStates.inUse).orderBy('id');
    return (this.db.getExecutor().adapter instanceof PostgresAdapter ? query.forUpdate() : query).execute();
  }

  private matching<O>(query: SelectQueryBuilder<DB, 'admin_login_cards', O>, tenantCode: string, search: CardSearch): SelectQueryBuilder<DB, 'admin_login_cards', O> {
    let q = query.where('tenant_code', '=', tenantCode);
    if (search.oprtId !== undefined) q = q.where('user_id', '=', search.oprtId);
    if (search.kinds !== undefined) q = search.kinds.length === 0 ? q.where(sql<SqlBool>`1 = 0`) : q.where('kind_num', 'in', search.kinds);
    if (search.states !== undefined) q = search.states.length === 0 ? q.where(sql<SqlBool>`1 = 0`) : q.where('state', 'in', search.states);
    const like = search.like;
    if (like !== undefined) q = q.where(sql<SqlBool>`search_text like ${containsPattern(like.toLowerCase())} escape '\\'`);
    return q;
  }

  /** The ids of up to `atMost` of the tenant's cards the search matches (in no particular order). */
  async matchingIds(tenantCode: string, search: CardSearch, atMost: number): Promise<string[]> {
    const rows = await this.matching(this.db.selectFrom('admin_login_cards').select('id'), tenantCode, search).limit(atMost).execute();
    return rows.map((row) => row.id);
  }

  /**
   * One page of the tenant's cards the search matches, or of the cards `among` (ids matchingIds answered). The page's
   * ids are found first and only its rows read: a deep page skips index entries (an index of tenant, order and id
   * covers them), not whole rows.
   */
  page(tenantCode: string, search: CardSearch, among?: readonly string[]): Promise<AdminLoginCardRow[]> {
    const inOrder = <Q extends SelectQueryBuilder<DB, 'admin_login_cards', object>>(q: Q): Q => {
      for (const order of search.order) q = q.orderBy(order.column, order.asc ? 'asc' : 'desc') as Q;
      return q.orderBy('id') as Q;
    };
    const candidates = this.db.selectFrom('admin_login_cards').select('id');
    const pageIds = inOrder(among ? candidates.where('tenant_code', '=', tenantCode).where('id', 'in', [...among]) : this.matching(candidates, tenantCode, search))
      .offset(search.offset)
      .limit(search.limit);
    return inOrder(this.db.selectFrom('admin_login_cards').selectAll().where('id', 'in', pageIds)).execute();
  }

  /**
   * One page of the tenant's cards the search matches, and how many match. SQLite has no index for LIKE '%…%' and
   * would read the tenant's rows in page order to find a rare text: there a text search first reads the ids of its
   * matches (a covering index of tenant and search text), and when they are few that one read is the count and the
   * page is made from them. PostgreSQL weighs its trigram index against the page order by itself.
   */
  async search(tenantCode: string, search: CardSearch): Promise<{ cards: AdminLoginCardRow[]; total: number }> {
    if (search.like !== undefined && !(this.db.getExecutor().adapter instanceof PostgresAdapter)) {
      const matches = await this.matchingIds(tenantCode, search, fewTextMatches + 1);
      if (matches.length <= fewTextMatches) return { cards: matches.length > 0 ? await this.page(tenantCode, search, matches) : [], total: matches.length };
    }
    const [cards, total] = await Promise.all([this.page(tenantCode, search), this.count(tenantCode, search)]);
    return { cards, total };
  }

  /** How many of the tenant's cards the search matches. */
  async count(tenantCode: string, search: CardSearch): Promise<number> {
    const row = await this.matching(this.db.selectFrom('admin_login_cards').select((eb) => eb.fn.countAll<number | string>().as('n')), tenantCode, search).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The tenant's latest card of a fixed number (see byFixedNo). */
  byFixedNoInTenant(fixedNo: string, tenantCode: string): Promise<AdminLoginCardRow | undefined> {
    return this.db
      .selectFrom('admin_login_cards')
      .selectAll()
      .where('fixed_no', '=', fixedNo)
      .where('tenant_code', '=', tenantCode)
      .orderBy('issue_seq', 'desc')
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** The cards of a tenant among `ids`. */
  byIds(ids: readonly string[], tenantCode: string): Promise<AdminLoginCardRow[]> {
    return this.db.selectFrom('admin_login_cards').selectAll().where('id', 'in', [...ids]).where('tenant_code', '=', tenantCode).execute();
  }

  /**
   * Moves the cards to `to` while each is still in one of `from`; answers how many moved. Put back in use while its
   * holder has another card in use, a card is refused by a unique index: `holderHasCard` then.
   */
  async transition(ids: readonly string[], from: readonly number[], to: number, at: number, holderHasCard: () => Error): Promise<number> {
    const result = await refusingDuplicates(
      () => this.db.updateTable('admin_login_cards').set({ state: to, updated_at: at }).where('id', 'in', [...ids]).where('state', 'in', [...from]).executeTakeFirst(),
      holderHasCard,
    );
    return Number(result.numUpdatedRows);
  }

  /** The new issue number (and password, when given) of a card written again, while it is still at `fromSeq`. */
  async rewrite(id: string, fromSeq: number, issueSeq: number, pwdHash: string | undefined, at: number): Promise<boolean> {
    const result = await this.db
      .updateTable('admin_login_cards')
      .set({ issue_seq: issueSeq, updated_at: at, ...(pwdHash === undefined ? {} : { pwd_hash: pwdHash }) })
      .where('id', '=', id)
      .where('issue_seq', '=', fromSeq)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
