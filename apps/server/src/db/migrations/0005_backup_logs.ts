import type { Kysely, Migration } from 'kysely';

export function migration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // one row per backup of this installation (database dumps, log archives), shown on private deployments
      await db.schema
        .createTable('backup_logs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('backup_time', 'bigint', (c) => c.notNull())
        .addColumn('file_path', 'text', (c) => c.notNull())
        .addColumn('addr', 'text', (c) => c.notNull())
        .addColumn('retention_day', 'integer', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('remarks', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('backup_logs_time').on('backup_logs').columns(['backup_time', 'id']).execute();
    },
  };
}
