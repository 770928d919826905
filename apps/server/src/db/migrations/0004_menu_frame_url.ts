import type { Kysely, Migration } from 'kysely';

export function migration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // report pages show a backend page in an embedded frame instead of a sub-application
      await db.schema.alterTable('menu_pages').addColumn('frame_url', 'text').execute();
    },
  };
}
