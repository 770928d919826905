import { sql } from 'kysely';
import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../database.ts';
import { createAdminLoginCards, createSystemKeyCards, indexAdminLoginCardSearch, indexAdminLoginCardUsers, indexSystemKeyCards } from '../card-tables.ts';

/**
 * A card issued again after a recycle gets a row of its own (issue 25, item 10); its earlier rows stay as its
 * history, and the table keeps the real time of each issue. The fixed number is no longer unique in either card
 * table: a partial unique index keeps one live row per fixed number (every state but not issued and recycled, as
 * `mayIssueOnto` says), and an index of fixed number and issue number finds the latest issue, whose number keeps
 * counting up, so an old copy is still refused. Existing rows are kept as they are.
 */
export function migration(dialect: Dialect): Migration {
  return {
    async up(db) {
      if (dialect === 'postgres') {
        for (const table of ['admin_login_cards', 'system_key_cards']) {
          // the column's unique constraint of 0014 (PostgreSQL names it <table>_fixed_no_key); found by its column
          const { rows } = await sql<{ conname: string }>`
            select c.conname from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any (c.conkey)
            where c.conrelid = ${table}::regclass and c.contype = 'u' and a.attname = 'fixed_no'`.execute(db);
          for (const { conname } of rows) await sql`alter table ${sql.table(table)} drop constraint ${sql.id(conname)}`.execute(db);
        }
      } else {
        // SQLite cannot drop a column's unique constraint: each table is made again without it, its rows copied, and
        // its indexes of 0014 and 0015 made again as they were
        await createAdminLoginCards(db, 'admin_login_cards_0018', '0018_card_issue_history');
        await copyAndReplace(db, 'admin_login_cards', ['id', 'tenant_code', 'user_id', 'oprt_no', 'kind_num', 'fixed_no', 'card_num', 'state', 'issue_seq', 'pwd_hash', 'is_super_admin', 'created_at', 'updated_at', 'search_text']);
        await indexAdminLoginCardUsers(db);
        await indexAdminLoginCardSearch(db, dialect);
        await createSystemKeyCards(db, 'system_key_cards_0018', '0018_card_issue_history');
        await copyAndReplace(db, 'system_key_cards', ['id', 'kind_num', 'fixed_no', 'state', 'issue_seq', 'created_at', 'updated_at']);
        await indexSystemKeyCards(db);
      }
      for (const table of ['admin_login_cards', 'system_key_cards']) {
        await sql`create unique index ${sql.id(`${table}_one_live_fixed_no`)} on ${sql.table(table)} (fixed_no) where state not in (10, 30)`.execute(db);
        await sql`create index ${sql.id(`${table}_fixed_no_issue`)} on ${sql.table(table)} (fixed_no, issue_seq)`.execute(db);
      }
    },
  };
}

/** Copies every row of `table` into `<table>_0018`, drops `table` (and its indexes) and gives the copy its name. */
async function copyAndReplace(db: Kysely<unknown>, table: string, columns: string[]): Promise<void> {
  const list = sql.join(columns.map((column) => sql.id(column)));
  await sql`insert into ${sql.table(`${table}_0018`)} (${list}) select ${list} from ${sql.table(table)}`.execute(db);
  await sql`drop table ${sql.table(table)}`.execute(db);
  await sql`alter table ${sql.table(`${table}_0018`)} rename to ${sql.table(table)}`.execute(db);
}
