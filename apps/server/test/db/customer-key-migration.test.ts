import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/database.ts';
import { migrateToLatest, migrateUpTo } from '../../src/db/migrations.ts';
import { databases, openFreshDatabase } from '../support/helpers.ts';

// Migration 0022 (issue 46, item 4): an installation initialised before sealed its copy of the system key under the
// PBKDF2 K_cust, and says so; one initialised after says argon2id (api-customer-password-guard.test.ts).
describe.each(databases)('migration 0022: the derivation of the customer-sealed key (%s)', (kind) => {
  let handle: DatabaseHandle;
  let cleanUp: () => Promise<void>;

  beforeAll(async () => {
    ({ handle, cleanUp } = await openFreshDatabase(kind));
    await migrateUpTo(handle.db, handle.dialect, '0019_master_token_issuer');
    await sql`insert into gate_installation (id, customer_no, mother_fixed_no, sys_key_code, mother_proof_hash, kid, sealed_system_key, customer_sealed_key, mother_card_salt, initialised_at)
      values ('this', '10001', 'A1B2C3D4', ${'ab'.repeat(16)}, ${'cd'.repeat(32)}, ${'0c'.repeat(8)}, 'sealed', ${'ef'.repeat(16)}, ${'5a'.repeat(16)}, 1)`.execute(handle.db);
    await migrateToLatest(handle.db, handle.dialect);
  });
  afterAll(async () => {
    await cleanUp?.();
  });

  it('marks the installation of before as sealed with PBKDF2, keeping its seal', async () => {
    const row = await handle.db.selectFrom('gate_installation').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ customer_key_derivation: 'pbkdf2-sm3', customer_sealed_key: 'ef'.repeat(16), mother_card_salt: '5a'.repeat(16) });
  });
});
