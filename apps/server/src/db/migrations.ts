import { Migrator, sql } from 'kysely';
import type { Kysely, Migration, MigrationProvider } from 'kysely';
import type { DB } from './schema.ts';
import type { Dialect } from './database.ts';
import { migrationList } from './migrations/index.ts';

/** In-code migrations (one file each in migrations/), applied in name order on start. */
function migrations(dialect: Dialect): Record<string, Migration> {
  return Object.fromEntries(migrationList.map(([name, migration]) => [name, migration(dialect)]));
}

export async function migrateToLatest(db: Kysely<DB>, dialect: Dialect): Promise<void> {
  await migrate(db, dialect, (migrator) => migrator.migrateToLatest());
}

/** Applies the migrations up to `name` only (a test of a migration starts from the data of the ones before it). */
export async function migrateUpTo(db: Kysely<DB>, dialect: Dialect, name: string): Promise<void> {
  await migrate(db, dialect, (migrator) => migrator.migrateTo(name));
}

/** The names of the migrations this release knows that the database has not applied yet, in the order they would run. */
export async function pendingMigrations(db: Kysely<DB>, dialect: Dialect): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations(dialect) } });
  const known = await migrator.getMigrations();
  return known.filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/** The newest migration the database has applied ('' for a new database): the schema a backup was taken at. */
export async function appliedSchema(db: Kysely<DB>): Promise<string> {
  // only a missing table means a new database: a database that does not answer is an error, not an empty one
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((table) => table.name === 'kysely_migration')) return '';
  const rows = await sql<{ name: string }>`select name from kysely_migration order by name desc limit 1`.execute(db);
  return rows.rows[0]?.name ?? '';
}

/** The names of every migration this release knows, in order. */
export function knownMigrations(dialect: Dialect): string[] {
  return Object.keys(migrations(dialect)).sort();
}

/** Applies every pending migration; `onApplied` hears each one's name as it is done. */
export async function migrateToLatestNamed(db: Kysely<DB>, dialect: Dialect, onApplied: (name: string) => void): Promise<string[]> {
  const applied: string[] = [];
  await migrate(db, dialect, async (migrator) => {
    const outcome = await migrator.migrateToLatest();
    for (const result of outcome.results ?? []) {
      if (result.status === 'Success') {
        applied.push(result.migrationName);
        onApplied(result.migrationName);
      }
    }
    return outcome;
  });
  return applied;
}

async function migrate(db: Kysely<DB>, dialect: Dialect, run: (migrator: Migrator) => ReturnType<Migrator['migrateToLatest']>): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(dialect) };
  const migrator = new Migrator({ db, provider });
  const { error, results } = await run(migrator);
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}
