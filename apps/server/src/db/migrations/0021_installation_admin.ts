import { sql } from 'kysely';
import type { Migration } from 'kysely';

// what the whole installation serves (sub-app registrations, licences) is changed over HTTP only by an account the
// operator marks (docs/installation-and-tenants.md); the installation's first administrator, who could do it
// before, keeps it: the oldest enabled system administrator of the default tenant
export function migration(): Migration {
  return {
    async up(db) {
      await db.schema.alterTable('users').addColumn('is_installation_admin', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      const first = await sql<{ id: string }>`
        select u.id from users u
        where u.tenant_code = (select min(code) from tenants) and u.is_system_admin = 1 and u.is_disabled = 0
        order by u.created_at, u.id limit 1`.execute(db);
      const id = first.rows[0]?.id;
      if (id !== undefined) await sql`update users set is_installation_admin = 1 where id = ${id}`.execute(db);
    },
  };
}
