import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/database.ts';
import { migrateToLatest, migrateUpTo } from '../../src/db/migrations.ts';
import { databases, openFreshDatabase } from '../support/helpers.ts';

// Migration 0023 (issue 46 item 8): a tenant that existed before it needs the card password with the card, as a new one does.
describe.each(databases)('migration 0023: the card-login setting (%s)', (kind) => {
  let handle: DatabaseHandle;
  let cleanUp: () => Promise<void>;

  beforeAll(async () => {
    ({ handle, cleanUp } = await openFreshDatabase(kind));
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
