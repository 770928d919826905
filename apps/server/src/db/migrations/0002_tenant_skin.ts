import type { Kysely, Migration } from 'kysely';

export function migration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('tenants')
        .addColumn('skin', 'text', (c) => c.notNull().defaultTo('DASUI001'))
        .execute();
    },
  };
}
