import type { Kysely, Migration } from 'kysely';

export function migration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // Licences become signed files that are re-verified when evaluated. Rows of 0001 had no file, so
      // they cannot be verified and are dropped (a demo data folder gets its licence again by a fresh seed).
      await db.schema.dropTable('licences').execute();
      await db.schema
        .createTable('licences')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('code', 'text', (c) => c.notNull().unique())
        .addColumn('file_text', 'text')
        .addColumn('file_hash', 'text')
        .addColumn('is_trial', 'integer', (c) => c.notNull())
        .addColumn('customer_no', 'text', (c) => c.notNull())
        .addColumn('customer_name', 'text', (c) => c.notNull())
        .addColumn('prd_pkg_category', 'text', (c) => c.notNull())
        .addColumn('is_formal', 'integer', (c) => c.notNull())
        .addColumn('begin_time', 'bigint')
        .addColumn('end_time', 'bigint')
        .addColumn('emp_count', 'integer', (c) => c.notNull())
        .addColumn('is_has_mobile', 'integer', (c) => c.notNull())
        .addColumn('is_permit_openapi', 'integer', (c) => c.notNull())
        .addColumn('is_limit_device', 'integer', (c) => c.notNull())
        .addColumn('infos', 'text', (c) => c.notNull())
        .addColumn('devices', 'text', (c) => c.notNull())
        .addColumn('activate_time', 'bigint')
        .addColumn('state', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('licences_created').on('licences').columns(['created_at', 'id']).execute();
      await db.schema
        .createTable('installation')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('customer_no', 'text', (c) => c.notNull())
        .addColumn('system_code', 'text', (c) => c.notNull())
        .addColumn('latest_seen', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
