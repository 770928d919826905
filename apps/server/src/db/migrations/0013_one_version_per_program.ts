import type { Kysely, Migration } from 'kysely';

export function migration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // One row per program, updated in place (0007 kept one per address and program, without bound). The
      // rows are reports that come again at every sign-in, so the table starts afresh.
      await db.schema.dropTable('program_versions').execute();
      await db.schema
        .createTable('program_versions')
        .addColumn('service_name', 'text', (c) => c.primaryKey())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('reported_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
