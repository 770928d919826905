import type { Kysely, Migration } from 'kysely';
import { createAdminLoginCards, createSystemKeyCards, indexAdminLoginCardUsers } from '../card-tables.ts';

export function migration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // Gate deployments (issue 13): the set-up state, two-phase card writes, master-card tokens, trusted
      // card issuers, the system key cards and the administrator login cards; sessions remember their card.
      await db.schema
        .createTable('gate_installation')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('customer_no', 'text', (c) => c.notNull())
        .addColumn('mother_fixed_no', 'text', (c) => c.notNull())
        .addColumn('sys_key_code', 'text', (c) => c.notNull())
        .addColumn('mother_proof_hash', 'text', (c) => c.notNull())
        .addColumn('kid', 'text', (c) => c.notNull())
        .addColumn('sealed_system_key', 'text', (c) => c.notNull())
        .addColumn('customer_sealed_key', 'text', (c) => c.notNull())
        .addColumn('mother_card_salt', 'text', (c) => c.notNull())
        .addColumn('initialised_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('prepared_card_writes')
        .addColumn('id_hash', 'text', (c) => c.primaryKey())
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('fixed_no', 'text', (c) => c.notNull())
        .addColumn('image_hash', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('master_card_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('trusted_card_issuers')
        .addColumn('public_key', 'text', (c) => c.primaryKey())
        .addColumn('trusted_by', 'text', (c) => c.notNull())
        .addColumn('trusted_at', 'bigint', (c) => c.notNull())
        .addColumn('last_used_at', 'bigint', (c) => c.notNull())
        .execute();
      await createSystemKeyCards(db, 'system_key_cards', '0014_gate_cards');
      await createAdminLoginCards(db, 'admin_login_cards', '0014_gate_cards');
      await indexAdminLoginCardUsers(db);
      await db.schema.alterTable('sessions').addColumn('card_id', 'text').execute();
    },
  };
}
