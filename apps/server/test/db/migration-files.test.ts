import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Dialect } from '../../src/db/database.ts';
import { knownMigrations } from '../../src/db/migrations.ts';
import { migrationList } from '../../src/db/migrations/index.ts';

// One migration a file (issue 50 item 7): src/db/migrations/ holds one file per migration, named as it, and the
// index that lists them by hand (the release bundles the server, so nothing reads the folder at run time). The
// index must list every file of the folder, in order, and nothing else, each under its own file's name.
const folder = path.join(import.meta.dirname, '..', '..', 'src', 'db', 'migrations');
const files = fs.readdirSync(folder).filter((file) => file !== 'index.ts').sort();

describe('one migration a file', () => {
  it('the folder holds only migration files, each with a number of its own', () => {
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(file).toMatch(/^\d{4}_[a-z0-9_]+\.ts$/);
    const numbers = files.map((file) => file.slice(0, 4));
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it('the index lists every file of the folder, in order, and nothing else', () => {
    expect(migrationList.map(([name]) => `${name}.ts`)).toEqual(files);
  });

  it("each name of the index runs its own file's migration", async () => {
    for (const [name, migration] of migrationList) {
      const file = (await import(path.join(folder, `${name}.ts`))) as { migration: unknown };
      expect(file.migration, name).toBe(migration);
    }
  });

  it.each<Dialect>(['sqlite', 'postgres'])('the server knows the migrations of the folder, in order (%s)', (dialect) => {
    expect(knownMigrations(dialect)).toEqual(files.map((file) => file.replace(/\.ts$/, '')));
  });
});
