import type { LdapConfig } from '../../config.ts';

/** The part of an ldapts Client the directory check uses (tests wrap it to watch binds). */
export interface LdapClientLike {
  bind(dn: string, password: string): Promise<void>;
  search(baseDn: string, options: { scope: 'sub'; filter: string; attributes: string[]; sizeLimit: number }): Promise<{ searchEntries: { dn: string }[] }>;
  unbind(): Promise<void>;
}

export type LdapClientFactory = (url: string) => LdapClientLike | Promise<LdapClientLike>;

/**
 * The LDAP client and its error classes, loaded at the first directory sign-in: most installations sign in with
 * passwords alone and never need it at all (docs/architecture.md, Memory).
 */
const loadLdapts = () => import('ldapts');

export const defaultLdapClientFactory: LdapClientFactory = async (url) => {
  const { Client } = await loadLdapts();
  return new Client({ url, timeout: 5000, connectTimeout: 5000 });
};

/** The directory cannot be reached (or refuses the service account). */
export class LdapUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`LDAP directory unavailable: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'LdapUnavailableError';
  }
}

/** RFC 4515 escaping of a value inside a search filter: \ * ( ) NUL, and every non-printable byte. */
export function escapeFilterValue(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const ch = String.fromCharCode(byte);
    if (byte < 0x20 || byte >= 0x7f || ch === '\\' || ch === '*' || ch === '(' || ch === ')') {
      out += `\\${byte.toString(16).padStart(2, '0')}`;
    } else {
      out += ch;
    }
  }
  return out;
}

export function userFilter(template: string, account: string): string {
  return template.split('{account}').join(escapeFilterValue(account));
}

export type DirectoryCheck = 'ok' | 'invalid';

/**
 * Service bind, search the user's DN with the escaped account, then bind as that DN with the password.
 * Never called with an empty password (an unauthenticated bind): callers refuse it first, and so does this.
 */
export async function checkDirectoryPassword(config: LdapConfig, factory: LdapClientFactory, account: string, password: string): Promise<DirectoryCheck> {
  if (password.length === 0 || account.length === 0) return 'invalid';
  const { InvalidCredentialsError, NoSuchObjectError, SizeLimitExceededError } = await loadLdapts();
  let client: LdapClientLike;
  try {
    client = await factory(config.url);
  } catch (error) {
    throw new LdapUnavailableError(error);
  }
  try {
    let dn: string;
    try {
      if (config.bindDn) await client.bind(config.bindDn, config.bindPassword);
      const { searchEntries } = await client.search(config.baseDn, {
        scope: 'sub',
        filter: userFilter(config.userFilter, account),
        attributes: ['dn'],
        sizeLimit: 2,
      });
      if (searchEntries.length !== 1 || !searchEntries[0]) return 'invalid';
      dn = searchEntries[0].dn;
    } catch (error) {
      if (error instanceof SizeLimitExceededError || error instanceof NoSuchObjectError) return 'invalid';
      throw new LdapUnavailableError(error);
    }
    try {
      await client.bind(dn, password);
      return 'ok';
    } catch (error) {
      if (error instanceof InvalidCredentialsError) return 'invalid';
      throw new LdapUnavailableError(error);
    }
  } finally {
    await client.unbind().catch(() => undefined);
  }
}
