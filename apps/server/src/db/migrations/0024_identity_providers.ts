import type { Migration } from 'kysely';

// external sign-in through a tenant's identity providers (issue 49, docs/sso.md)
export function migration(): Migration {
  return {
    async up(db) {
      await db.schema
        .createTable('identity_providers')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('tenant_code', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('name_i18n', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('settings', 'text', (c) => c.notNull())
        .addColumn('client_secret_sealed', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('identity_providers_tenant').on('identity_providers').column('tenant_code').execute();
      await db.schema
        .createTable('sso_round_trips')
        .addColumn('state_hash', 'text', (c) => c.primaryKey())
        .addColumn('provider_id', 'text', (c) => c.notNull())
        .addColumn('tenant_code', 'text', (c) => c.notNull())
        .addColumn('nonce', 'text', (c) => c.notNull())
        .addColumn('code_verifier', 'text', (c) => c.notNull())
        .addColumn('from_path', 'text', (c) => c.notNull())
        .addColumn('lang', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema
        .createTable('sso_login_tickets')
        .addColumn('ticket_hash', 'text', (c) => c.primaryKey())
        .addColumn('provider_id', 'text', (c) => c.notNull())
        .addColumn('tenant_code', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('provider_subject', 'text', (c) => c.notNull())
        .addColumn('provider_session', 'text')
        .addColumn('id_token_sealed', 'text')
        .addColumn('from_path', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema
        .createTable('sso_sessions')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('provider_id', 'text', (c) => c.notNull())
        .addColumn('provider_subject', 'text', (c) => c.notNull())
        .addColumn('provider_session', 'text')
        .addColumn('id_token_sealed', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sso_sessions_provider_session').on('sso_sessions').columns(['provider_id', 'provider_session']).execute();
      await db.schema.createIndex('sso_sessions_provider_subject').on('sso_sessions').columns(['provider_id', 'provider_subject']).execute();
    },
  };
}
