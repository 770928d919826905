import { sql } from 'kysely';
import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../database.ts';
import { changeStampTables, changeStampsRowId } from '../change-stamps.ts';
import type { ChangeStampKind } from '../change-stamps.ts';

// what signed-in calls read with their session instead of the licences, grants and menus (db/change-stamps.ts)
export function migration(dialect: Dialect): Migration {
  return {
    async up(db) {
      await createChangeStamps(db, dialect);
    },
  };
}

/** Creates change_stamps, its row and the triggers. */
async function createChangeStamps(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
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
