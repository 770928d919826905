import type { IdentityProviderKind } from '@campus/contracts';
import type { ProtocolClient } from './protocol.ts';

/**
 * A protocol client made at its first call: the OpenID Connect library is loaded only when a tenant's provider is
 * first used (a server without one never holds it; docs/architecture.md, Memory). One client is made and kept.
 */
export function lazyProtocolClient(kind: IdentityProviderKind, make: () => Promise<ProtocolClient>): ProtocolClient {
  let made: Promise<ProtocolClient> | null = null;
  const client = () => {
    made ??= make().catch((error: unknown) => {
      made = null;
      throw error;
    });
    return made;
  };
  return {
    kind,
    authorizationUrl: async (...args) => (await client()).authorizationUrl(...args),
    finish: async (...args) => (await client()).finish(...args),
    logoutUrl: async (...args) => (await client()).logoutUrl(...args),
    readLogout: async (...args) => (await client()).readLogout(...args),
    test: async (...args) => (await client()).test(...args),
  };
}
