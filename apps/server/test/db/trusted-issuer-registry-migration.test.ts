import { sql } from 'kysely';
import { sm2 } from 'sm-crypto-v2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuerDeviceId } from '@campus/card-crypto';
import type { DatabaseHandle } from '../../src/db/database.ts';
import { migrateToLatest, migrateUpTo } from '../../src/db/migrations.ts';
import { TrustedIssuers } from '../../src/modules/gm-account/trusted-issuers.ts';
import { OperationLogService } from '../../src/modules/operation-log/operation-log-service.ts';
import { OperationLogRepository } from '../../src/modules/operation-log/operation-log-repository.ts';
import { databases, openFreshDatabase } from '../support/helpers.ts';

// Migration 0020 (issue 46 item 1): a card issuer trusted by an earlier release had a trust without end. After the
// upgrade it is in the registry with its device id, and its trust counts as ended: it must be renewed.
describe.each(databases)('migration 0020: the registry of trusted card issuers (%s)', (kind) => {
  let handle: DatabaseHandle;
  let cleanUp: () => Promise<void>;
  const earlier = sm2.generateKeyPairHex();

  beforeAll(async () => {
    ({ handle, cleanUp } = await openFreshDatabase(kind));
    await migrateUpTo(handle.db, handle.dialect, '0019_master_token_issuer');
    await sql`insert into trusted_card_issuers (public_key, trusted_by, trusted_at, last_used_at) values (${earlier.publicKey}, 'key-card:04AA0001', 1000, 2000)`.execute(handle.db);
    await migrateToLatest(handle.db, handle.dialect);
  });
  afterAll(async () => {
    await cleanUp?.();
  });

  it('keeps an earlier trust in the registry, expired, under its device id', async () => {
    const issuers = new TrustedIssuers({ db: handle.db, logs: new OperationLogService({ repo: new OperationLogRepository(handle.db), now: () => 5000 }), now: () => 5000, trustTtlMs: 36_000_000 });
    expect(await issuers.list()).toEqual([
      {
        deviceId: issuerDeviceId(earlier.publicKey),
        hostName: '',
        trustedBy: 'key-card:04AA0001',
        clientIp: '',
        firstTrustedAt: 1000,
        trustedAt: 1000,
        expiresAt: 0,
        lastFetchAt: 2000,
        lastFetchIp: '',
        state: 'expired',
        revokedAt: null,
        revokedBy: null,
      },
    ]);
  });
});
