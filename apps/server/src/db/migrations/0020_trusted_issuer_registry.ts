import type { Kysely, Migration } from 'kysely';
import { issuerDeviceId } from '@campus/card-crypto';

/**
 * trusted_card_issuers becomes the registry of trusted card issuers (issue 46 item 1): a trust expires and can be
 * revoked, and a key fetch answers a one-time challenge. A trust made before had no end: it is kept as expired
 * (expires_at 0), so the first fetch after the upgrade is refused until the key card with the customer password (or,
 * during the set-up, the mother card) renews it; its device id is worked out from its public key.
 */
export function migration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const columns: [string, 'text' | 'bigint', string | number | null][] = [
        ['device_id', 'text', ''],
        ['host_name', 'text', ''],
        ['client_ip', 'text', ''],
        ['renewed_at', 'bigint', 0],
        ['expires_at', 'bigint', 0],
        ['last_fetch_ip', 'text', ''],
        ['revoked_at', 'bigint', null],
        ['revoked_by', 'text', null],
      ];
      for (const [name, type, value] of columns) {
        await db.schema
          .alterTable('trusted_card_issuers')
          .addColumn(name, type, (c) => (value === null ? c : c.notNull().defaultTo(value)))
          .execute();
      }
      const table = db as Kysely<{ trusted_card_issuers: { public_key: string; device_id: string; renewed_at: number; trusted_at: number } }>;
      const rows = await table.selectFrom('trusted_card_issuers').select(['public_key', 'trusted_at']).execute();
      for (const row of rows) {
        await table.updateTable('trusted_card_issuers').set({ device_id: issuerDeviceId(row.public_key), renewed_at: Number(row.trusted_at) }).where('public_key', '=', row.public_key).execute();
      }
      await db.schema.createIndex('trusted_card_issuers_device_id').on('trusted_card_issuers').column('device_id').execute();
      await db.schema
        .createTable('issuer_key_challenges')
        .addColumn('challenge_hash', 'text', (c) => c.primaryKey())
        .addColumn('device_public_key', 'text', (c) => c.notNull())
        .addColumn('client_ip', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('issuer_key_challenges_device').on('issuer_key_challenges').columns(['device_public_key', 'created_at']).execute();
      await db.schema.createIndex('issuer_key_challenges_address').on('issuer_key_challenges').columns(['client_ip', 'created_at']).execute();
    },
  };
}
