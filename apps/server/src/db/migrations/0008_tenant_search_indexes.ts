import type { Kysely, Migration } from 'kysely';

export function migration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // The operation log is read per tenant, newest first (id breaks ties): this index serves both the
      // filter and the order; the time-only index of 0001 served no query and is dropped.
      await db.schema.createIndex('operation_logs_tenant_time').on('operation_logs').columns(['tenant_code', 'created_at', 'id']).execute();
      await db.schema.dropIndex('operation_logs_created').execute();
      // live sessions are counted per tenant (enterprise-data home figures)
      await db.schema.createIndex('sessions_tenant_idle').on('sessions').columns(['tenant_code', 'idle_expires_at']).execute();
    },
  };
}
