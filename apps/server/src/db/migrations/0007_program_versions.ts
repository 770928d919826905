import type { Kysely, Migration } from 'kysely';

export function migration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // the latest version each program (service) reported from each address (ReportVersion)
      await db.schema
        .createTable('program_versions')
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('service_name', 'text', (c) => c.notNull())
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('reported_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('program_versions_pk', ['address', 'service_name'])
        .execute();
    },
  };
}
