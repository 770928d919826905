import fs from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import type { DatabaseHandle } from '../src/db/database.ts';
import { migrateToLatest, migrateUpTo } from '../src/db/migrations.ts';
import { databases, freshDatabase, tempDir } from './helpers.ts';

// Migration 0023 (issue 46 item 8): a tenant that existed before it needs the card password with the card, as a new one does.
describe.each(databases)('migration 0023: the card-login setting (%s)', (kind) => {
  let handle: DatabaseHandle;
  let cleanUp: () => Promise<void>;

  beforeAll(async () => {
    const dataDir = tempDir();
    const database = await freshDatabase(kind, dataDir);
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, ...(database.url ? { DATABASE_URL: database.url } : {}) }, dataDir);
    handle = openDatabase(config);
    cleanUp = async () => {
      await handle.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    };
  });
  afterAll(async () => {
    await cleanUp();
  });

  it('gives the tenants already there card-and-password', async () => {
    await migrateUpTo(handle.db, handle.dialect, '0019_master_token_issuer');
    await sql`insert into tenants (code, name_i18n, system_name_i18n, created_at) values ('1001', '{}', '{}', 1)`.execute(handle.db);
    await migrateToLatest(handle.db, handle.dialect);
    expect(await handle.db.selectFrom('tenants').select(['code', 'card_login']).execute()).toEqual([{ code: '1001', card_login: 'card-and-password' }]);
  });
});
