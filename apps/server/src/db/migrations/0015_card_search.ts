import { sql } from 'kysely';
import type { Migration } from 'kysely';
import type { Dialect } from '../database.ts';
import { indexAdminLoginCardSearch, indexSystemKeyCards, searchTextColumn } from '../card-tables.ts';

// card management's Search (bench: 100,000 cards) and its one-card-in-use rules: pages by tenant, newest first, filtered by state, kind or
// operator; likeSearch looks in one lower-case column (fixed number, login name, card number), which
// PostgreSQL indexes by trigrams when pg_trgm can be created (without it the search still works, unindexed)
export function migration(dialect: Dialect): Migration {
  return {
    async up(db) {
      await db.schema.alterTable('admin_login_cards').addColumn('search_text', 'text', searchTextColumn).execute();
      await sql`update admin_login_cards set search_text = lower(fixed_no) || ' ' || lower(oprt_no) || ' ' || cast(card_num as text)`.execute(db);
      await indexAdminLoginCardSearch(db, dialect);
      await indexSystemKeyCards(db);
      if (dialect === 'postgres') {
        await sql`savepoint card_search_trgm`.execute(db);
        try {
          await sql`create extension if not exists pg_trgm`.execute(db);
          await sql`create index admin_login_cards_search_trgm on admin_login_cards using gin (search_text gin_trgm_ops)`.execute(db);
          await sql`release savepoint card_search_trgm`.execute(db);
        } catch (error) {
          await sql`rollback to savepoint card_search_trgm`.execute(db);
          process.emitWarning(`pg_trgm is not available (${error instanceof Error ? error.message : String(error)}): card searches by text run unindexed`);
        }
      }
    },
  };
}
