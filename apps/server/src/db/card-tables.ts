import { sql } from 'kysely';
import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Dialect } from './database.ts';

/**
 * The two card tables as the migrations make them, written once: 0014 creates them with a fixed number unique in
 * each, 0015 gives admin_login_cards its search column and both tables the indexes of card management, and 0018 on
 * SQLite (which cannot drop a column's unique constraint) makes them again without that uniqueness, with 0015's
 * column and indexes. `at` names the migration whose table is made.
 */
export type CardTablesAt = '0014_gate_cards' | '0018_card_issue_history';

/** admin_login_cards.search_text (0015): fixed number, login name and card number, lower case. */
export const searchTextColumn = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo('');

const fixedNoColumn = (at: CardTablesAt) => (c: ColumnDefinitionBuilder) => (at === '0014_gate_cards' ? c.notNull().unique() : c.notNull());

export async function createSystemKeyCards(db: Kysely<unknown>, table: string, at: CardTablesAt): Promise<void> {
  await db.schema
    .createTable(table)
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind_num', 'integer', (c) => c.notNull())
    .addColumn('fixed_no', 'text', fixedNoColumn(at))
    .addColumn('state', 'integer', (c) => c.notNull())
    .addColumn('issue_seq', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function createAdminLoginCards(db: Kysely<unknown>, table: string, at: CardTablesAt): Promise<void> {
  let create = db.schema
    .createTable(table)
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_code', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('oprt_no', 'text', (c) => c.notNull())
    .addColumn('kind_num', 'integer', (c) => c.notNull())
    .addColumn('fixed_no', 'text', fixedNoColumn(at))
    .addColumn('card_num', 'integer', (c) => c.notNull())
    .addColumn('state', 'integer', (c) => c.notNull())
    .addColumn('issue_seq', 'integer', (c) => c.notNull())
    .addColumn('pwd_hash', 'text', (c) => c.notNull())
    .addColumn('is_super_admin', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull());
  if (at !== '0014_gate_cards') create = create.addColumn('search_text', 'text', searchTextColumn);
  await create.execute();
}

/** 0014's index of admin_login_cards: an administrator's cards. */
export async function indexAdminLoginCardUsers(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('admin_login_cards_user').on('admin_login_cards').column('user_id').execute();
}

/**
 * 0015's indexes of admin_login_cards: card management pages by tenant, newest first, filtered by state, kind or
 * operator; one card in use per administrator is kept by the database, so two administrators confirming at once
 * cannot both succeed (the repositories answer 'card already exists').
 */
export async function indexAdminLoginCardSearch(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema.createIndex('admin_login_cards_tenant_created').on('admin_login_cards').columns(['tenant_code', 'created_at', 'id']).execute();
  await db.schema.createIndex('admin_login_cards_tenant_state').on('admin_login_cards').columns(['tenant_code', 'state', 'created_at']).execute();
  await db.schema.createIndex('admin_login_cards_tenant_kind').on('admin_login_cards').columns(['tenant_code', 'kind_num', 'state']).execute();
  await db.schema.createIndex('admin_login_cards_tenant_num').on('admin_login_cards').columns(['tenant_code', 'card_num']).execute();
  await db.schema.createIndex('admin_login_cards_tenant_user').on('admin_login_cards').columns(['tenant_code', 'user_id', 'created_at']).execute();
  await db.schema.createIndex('admin_login_cards_one_in_use').on('admin_login_cards').column('user_id').unique().where(sql.ref('state'), '=', 20).execute();
  if (dialect === 'sqlite') {
    // SQLite has no index for LIKE '%…%': a covering index lets a text search read the tenant's short search
    // texts instead of whole rows (PostgreSQL's trigram index is 0015's own)
    await db.schema.createIndex('admin_login_cards_tenant_search').on('admin_login_cards').columns(['tenant_code', 'search_text', 'id']).execute();
  }
}

/** 0015's indexes of system_key_cards: one system key card in use, kept by the database; the list newest first, by state. */
export async function indexSystemKeyCards(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('system_key_cards_one_in_use').on('system_key_cards').column('state').unique().where(sql.ref('state'), '=', 20).execute();
  await db.schema.createIndex('system_key_cards_created').on('system_key_cards').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('system_key_cards_state').on('system_key_cards').columns(['state', 'created_at']).execute();
}
