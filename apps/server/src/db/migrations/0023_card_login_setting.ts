import type { Migration } from 'kysely';

// how the tenant's administrators sign in with their card (issue 46): the card and its card password unless
// the tenant's system administrator allows the card alone (a copy of a card's bytes then signs in)
export function migration(): Migration {
  return {
    async up(db) {
      await db.schema.alterTable('tenants').addColumn('card_login', 'text', (c) => c.notNull().defaultTo('card-and-password')).execute();
    },
  };
}
