import type { Migration } from 'kysely';

// which K_cust sealed the installation's customer-sealed key (docs/cards.md "Keys"): the installations of before
// are PBKDF2-HMAC-SM3's, resealed under argon2id the next time the server sees the right customer password
export function migration(): Migration {
  return {
    async up(db) {
      await db.schema.alterTable('gate_installation').addColumn('customer_key_derivation', 'text', (c) => c.notNull().defaultTo('pbkdf2-sm3')).execute();
    },
  };
}
