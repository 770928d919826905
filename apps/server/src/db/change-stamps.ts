import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';

/**
 * Change stamps: one counter per kind of data that the rules or the replies of signed-in calls depend on and that
 * changes seldom. A trigger bumps the counter in the same transaction as every insert, update or delete of the
 * kind's tables, so no code path (a route, the seed, a registration, an operator's SQL) can change the data and
 * forget the stamp. Every signed-in call reads the stamps with its session, in one statement; what a node derives
 * from such data (the licence in effect, a user's grants, the menu catalogue) it keeps under the stamp it was read
 * with, and reads again as soon as a call brings another stamp: a change made on any node holds on every node at
 * its next call, and the call reads one row instead of the data.
 */
export const changeStampTables = {
  licences: ['licences'],
  grants: ['permission_grants'],
  // the menus and where each system's sub-app is loaded from
  catalogue: ['menu_systems', 'menu_pages', 'sub_app_registrations'],
} as const;

export type ChangeStampKind = keyof typeof changeStampTables;

/** The stamps as one call read them. Each grows with every change (and goes back only with a database restored). */
export type ChangeStamps = Record<ChangeStampKind, number>;

/** The one row of change_stamps. */
export const changeStampsRowId = 1;

/** One kind's stamp as it is now; null without the stamps' row. Data read after it is at least as new. */
export async function readChangeStamp(db: Kysely<DB>, kind: ChangeStampKind): Promise<number | null> {
  const row = await db.selectFrom('change_stamps').select(kind).where('id', '=', changeStampsRowId).executeTakeFirst();
  return row ? Number(row[kind]) : null;
}
