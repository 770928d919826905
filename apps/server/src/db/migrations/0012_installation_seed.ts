import { sql } from 'kysely';
import type { Kysely, Migration } from 'kysely';

export function migration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // The repository's test licence keys are trusted only on an installation seeded with the demo, whatever
      // NODE_ENV says later. A data folder from before this column is taken as the demo when it holds the
      // demo's system administrator (the production seed makes 'admin').
      await db.schema.alterTable('installation').addColumn('seed', 'text').execute();
      await sql`UPDATE installation SET seed = 'demo' WHERE EXISTS (SELECT 1 FROM users WHERE tenant_code = '1001' AND account = 'sysadmin')`.execute(db);
    },
  };
}
