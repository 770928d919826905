import type { Kysely, Migration } from 'kysely';

export function migration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // A session signed in with a password that must be changed (spec §4, forced cases) may make only the
      // calls of the password-change rule (src/http/route-rules.ts). Fixed at sign-in: every change of the
      // password ends the user's sessions.
      await db.schema.alterTable('sessions').addColumn('password_change_required', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    },
  };
}
