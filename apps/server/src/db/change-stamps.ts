import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Dialect } from './database.ts';
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

/** Creates change_stamps, its row and the triggers (migration 0017). */
export async function createChangeStamps(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const kinds = Object.keys(changeStampTables) as ChangeStampKind[];
  let table = db.schema.createTable('change_stamps').addColumn('id', 'integer', (c) => c.primaryKey());
  for (const kind of kinds) table = table.addColumn(kind, 'bigint', (c) => c.notNull().defaultTo(0));
  await table.execute();
  await sql`insert into change_stamps (id) values (${sql.lit(changeStampsRowId)})`.execute(db);
  if (dialect === 'postgres') {
    // one function for every kind: its argument names the column to bump
    await sql`create function bump_change_stamp() returns trigger language plpgsql as $$
      begin
        execute format('update change_stamps set %I = %I + 1 where id = ${sql.raw(String(changeStampsRowId))}', tg_argv[0], tg_argv[0]);
        return null;
      end $$`.execute(db);
  }
  for (const kind of kinds) {
    for (const name of changeStampTables[kind]) {
      if (dialect === 'postgres') {
        // Deferred to the commit: the stamps' row is then locked only while the transaction commits, after every row
        // it changes is locked. Bumped at each statement instead, a transaction would hold the stamps' row while it
        // goes on to lock other rows: two transactions changing two rows in opposite order would deadlock.
        await sql`create constraint trigger ${sql.id(`${name}_change_stamp`)} after insert or update or delete on ${sql.table(name)}
          deferrable initially deferred for each row execute function bump_change_stamp(${sql.lit(kind)})`.execute(db);
        await sql`create trigger ${sql.id(`${name}_truncate_change_stamp`)} after truncate on ${sql.table(name)}
          for each statement execute function bump_change_stamp(${sql.lit(kind)})`.execute(db);
      } else {
        for (const event of ['insert', 'update', 'delete'] as const) {
          await sql`create trigger ${sql.id(`${name}_${event}_change_stamp`)} after ${sql.raw(event)} on ${sql.table(name)}
            begin update change_stamps set ${sql.id(kind)} = ${sql.id(kind)} + 1 where id = ${sql.lit(changeStampsRowId)}; end`.execute(db);
        }
      }
    }
  }
}
