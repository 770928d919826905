import type { Migration } from 'kysely';

// a master-card token names the card issuer that read the mother card: it may trust only that issuer with the
// system key (docs/cards.md "What each card can do"); a token made before has none and trusts no issuer
export function migration(): Migration {
  return {
    async up(db) {
      await db.schema.alterTable('master_card_tokens').addColumn('device_public_key', 'text').execute();
    },
  };
}
