import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Dialect } from './database.ts';

/**
 * Migration 0018: a card issued again after a recycle gets a row of its own (issue 25, item 10); its earlier rows stay
 * as its history. The fixed number is no longer unique in either card table: a partial unique index keeps one live
 * row per fixed number (every state but not issued and recycled, as `mayIssueOnto` says), and an index of fixed
 * number and issue number finds the latest issue, whose number keeps counting up, so an old copy is still refused.
 * Existing rows are kept as they are.
 */
export async function keepCardIssueHistory(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
    for (const table of ['admin_login_cards', 'system_key_cards']) {
      // the column's unique constraint of 0001 (PostgreSQL names it <table>_fixed_no_key); found by its column
      const { rows } = await sql<{ conname: string }>`
        select c.conname from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any (c.conkey)
        where c.conrelid = ${table}::regclass and c.contype = 'u' and a.attname = 'fixed_no'`.execute(db);
      for (const { conname } of rows) await sql`alter table ${sql.table(table)} drop constraint ${sql.id(conname)}`.execute(db);
    }
  } else {
    // SQLite cannot drop a column's unique constraint: each table is made again without it, its rows copied
    await rebuildAdminLoginCards(db);
    await rebuildSystemKeyCards(db);
  }
  for (const table of ['admin_login_cards', 'system_key_cards']) {
    await sql`create unique index ${sql.id(`${table}_one_live_fixed_no`)} on ${sql.table(table)} (fixed_no) where state not in (10, 30)`.execute(db);
    await sql`create index ${sql.id(`${table}_fixed_no_issue`)} on ${sql.table(table)} (fixed_no, issue_seq)`.execute(db);
  }
}

async function rebuildAdminLoginCards(db: Kysely<unknown>): Promise<void> {
  const columns = ['id', 'tenant_code', 'user_id', 'oprt_no', 'kind_num', 'fixed_no', 'card_num', 'state', 'issue_seq', 'pwd_hash', 'is_super_admin', 'created_at', 'updated_at', 'search_text'];
  await db.schema
    .createTable('admin_login_cards_0018')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_code', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('oprt_no', 'text', (c) => c.notNull())
    .addColumn('kind_num', 'integer', (c) => c.notNull())
    .addColumn('fixed_no', 'text', (c) => c.notNull())
    .addColumn('card_num', 'integer', (c) => c.notNull())
    .addColumn('state', 'integer', (c) => c.notNull())
    .addColumn('issue_seq', 'integer', (c) => c.notNull())
    .addColumn('pwd_hash', 'text', (c) => c.notNull())
    .addColumn('is_super_admin', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await copyAndReplace(db, 'admin_login_cards', columns);
  // the indexes of 0001 and 0015, as they were
  await db.schema.createIndex('admin_login_cards_user').on('admin_login_cards').column('user_id').execute();
  await db.schema.createIndex('admin_login_cards_tenant_created').on('admin_login_cards').columns(['tenant_code', 'created_at', 'id']).execute();
  await db.schema.createIndex('admin_login_cards_tenant_state').on('admin_login_cards').columns(['tenant_code', 'state', 'created_at']).execute();
  await db.schema.createIndex('admin_login_cards_tenant_kind').on('admin_login_cards').columns(['tenant_code', 'kind_num', 'state']).execute();
  await db.schema.createIndex('admin_login_cards_tenant_num').on('admin_login_cards').columns(['tenant_code', 'card_num']).execute();
  await db.schema.createIndex('admin_login_cards_tenant_user').on('admin_login_cards').columns(['tenant_code', 'user_id', 'created_at']).execute();
  await db.schema.createIndex('admin_login_cards_one_in_use').on('admin_login_cards').column('user_id').unique().where(sql.ref('state'), '=', 20).execute();
  await db.schema.createIndex('admin_login_cards_tenant_search').on('admin_login_cards').columns(['tenant_code', 'search_text', 'id']).execute();
}

async function rebuildSystemKeyCards(db: Kysely<unknown>): Promise<void> {
  const columns = ['id', 'kind_num', 'fixed_no', 'state', 'issue_seq', 'created_at', 'updated_at'];
  await db.schema
    .createTable('system_key_cards_0018')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind_num', 'integer', (c) => c.notNull())
    .addColumn('fixed_no', 'text', (c) => c.notNull())
    .addColumn('state', 'integer', (c) => c.notNull())
    .addColumn('issue_seq', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await copyAndReplace(db, 'system_key_cards', columns);
  await db.schema.createIndex('system_key_cards_one_in_use').on('system_key_cards').column('state').unique().where(sql.ref('state'), '=', 20).execute();
  await db.schema.createIndex('system_key_cards_created').on('system_key_cards').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('system_key_cards_state').on('system_key_cards').columns(['state', 'created_at']).execute();
}

/** Copies every row of `table` into `<table>_0018`, drops `table` (and its indexes) and gives the copy its name. */
async function copyAndReplace(db: Kysely<unknown>, table: string, columns: string[]): Promise<void> {
  const list = sql.join(columns.map((column) => sql.id(column)));
  await sql`insert into ${sql.table(`${table}_0018`)} (${list}) select ${list} from ${sql.table(table)}`.execute(db);
  await sql`drop table ${sql.table(table)}`.execute(db);
  await sql`alter table ${sql.table(`${table}_0018`)} rename to ${sql.table(table)}`.execute(db);
}
