import type { Kysely, Migration } from 'kysely';

export function migration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // the enterprise-data (qy) organisation: departments (a tree) and their employees, per tenant
      await db.schema
        .createTable('departments')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('tenant_code', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('parent_id', 'text', (c) => c.references('departments.id'))
        .addColumn('sort_num', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('departments_tenant').on('departments').column('tenant_code').execute();
      await db.schema
        .createTable('employees')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('tenant_code', 'text', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('department_id', 'text', (c) => c.notNull().references('departments.id'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      // an employee code is unique within its tenant; led by tenant_code, the index also serves per-tenant reads
      await db.schema.createIndex('employees_tenant_code').on('employees').columns(['tenant_code', 'code']).unique().execute();
    },
  };
}
