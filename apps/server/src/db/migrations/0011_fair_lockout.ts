import { sql } from 'kysely';
import type { Kysely, Migration } from 'kysely';

export function migration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // Failures are counted per account and address (scope 'pair') before they lock an account for every
      // address, which needs failures from several addresses: the account row remembers them.
      await db.schema.alterTable('login_failures').addColumn('addresses', 'text').execute();
      // address rows of 0001 locked everyone behind a NAT; an address is now only throttled: start afresh
      await sql`DELETE FROM login_failures`.execute(db);
    },
  };
}
