import type { Migration } from 'kysely';

// the back-channel logout tokens a provider's logout already ended sessions with (issue 49, docs/sso.md): each
// token's jti, hashed, per provider, until the token could no longer be accepted; the key makes a replay (or the
// same token reaching two nodes at once) insert nothing, so it is refused instead of acted on twice
export function migration(): Migration {
  return {
    async up(db) {
      await db.schema
        .createTable('sso_logout_tokens')
        .addColumn('provider_id', 'text', (c) => c.notNull())
        .addColumn('jti_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('sso_logout_tokens_pk', ['provider_id', 'jti_hash'])
        .execute();
    },
  };
}
