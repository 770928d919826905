import type { Migration } from 'kysely';

// sub-systems of other teams registered by an operator (SubApp/Register, `npm run subapp`): their system and
// pages live in the menu tables like the built-in ones; this row says where the sub-app is loaded from
export function migration(): Migration {
  return {
    async up(db) {
      await db.schema
        .createTable('sub_app_registrations')
        .addColumn('app_no', 'text', (c) => c.primaryKey())
        .addColumn('entry', 'text', (c) => c.notNull())
        .addColumn('script_origins', 'text', (c) => c.notNull())
        .addColumn('function_codes', 'text', (c) => c.notNull())
        .addColumn('registered_at', 'bigint', (c) => c.notNull())
        .addColumn('registered_by', 'text', (c) => c.notNull())
        .execute();
    },
  };
}
