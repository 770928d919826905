import { isIP } from 'node:net';
import type { Kysely } from 'kysely';
import { apiPaths, codes, identityProviderKinds, languageCodes } from '@campus/contracts';
import type {
  CasProviderSettings,
  IdentityProviderButton,
  IdentityProviderKind,
  IdentityProviderView,
  LanguageCode,
  Localised,
  OidcProviderSettings,
  SaveIdentityProviderRequest,
} from '@campus/contracts';
import type { DB, IdentityProvidersTable } from '../../db/schema.ts';
import { AppError } from '../../http/envelope.ts';
import { newId } from '../../lib/hash.ts';
import type { KekSealer } from '../../lib/kek-seal.ts';
import { pickLocalised, toLocalisedJson } from '../../lib/localised.ts';
import { ProviderNetworkPolicy } from '../../lib/outbound-addresses.ts';
import { checkProviderUrl } from './provider-fetch.ts';
import type { ProviderForProtocol } from './protocol.ts';

export type ProviderRow = IdentityProvidersTable;

/** The longest name, client id and client secret a provider keeps. */
export const providerLimits = { name: 64, clientId: 255, clientSecret: 1024, url: 2048, claim: 64, scopes: 512 } as const;

const claimPattern = /^[A-Za-z0-9_.:-]+$/;
/** RFC 6749 §3.3 scope-token: printable ASCII without space, `"` and `\`. */
const scopeTokenPattern = /^[\x21\x23-\x5b\x5d-\x7e]+$/;
// eslint-disable-next-line no-control-regex
const controlCharacters = /[\u0000-\u001f\u007f]/;

function invalid(field: string): AppError {
  return new AppError(codes.ssoProviderConfigInvalid, { status: 400, values: { field } });
}

function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/** An address of a provider: https, or http on loopback only (a test provider on this machine); no credentials. */
export function providerUrlProblem(value: string): boolean {
  if (value.length > providerLimits.url || controlCharacters.test(value)) return true;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return true;
  }
  if (url.username || url.password || url.hash) return true;
  if (url.protocol === 'https:') return false;
  return !(url.protocol === 'http:' && isLoopbackHost(url.hostname));
}

function checkName(name: Localised): Localised {
  const out = {} as Localised;
  for (const language of languageCodes) {
    const text = (name[language] ?? '').trim();
    if (text === '' || text.length > providerLimits.name || controlCharacters.test(text)) throw invalid(`name.${language}`);
    out[language] = text;
  }
  return out;
}

export function checkOidcSettings(settings: OidcProviderSettings | undefined): OidcProviderSettings {
  if (!settings) throw invalid('oidc');
  const discoveryUrl = settings.discoveryUrl.trim();
  if (providerUrlProblem(discoveryUrl)) throw invalid('oidc.discoveryUrl');
  const clientId = settings.clientId.trim();
  if (clientId === '' || clientId.length > providerLimits.clientId || controlCharacters.test(clientId)) throw invalid('oidc.clientId');
  const scopeList = settings.scopes.split(' ').filter((scope) => scope !== '');
  if (settings.scopes.length > providerLimits.scopes || scopeList.some((scope) => !scopeTokenPattern.test(scope))) throw invalid('oidc.scopes');
  // `openid` is always asked for: kept first, once
  const scopes = ['openid', ...new Set(scopeList.filter((scope) => scope !== 'openid'))].join(' ');
  const accountClaim = settings.accountClaim.trim();
  if (accountClaim.length > providerLimits.claim || !claimPattern.test(accountClaim)) throw invalid('oidc.accountClaim');
  return { discoveryUrl, clientId, scopes, accountClaim };
}

export function checkCasSettings(settings: CasProviderSettings | undefined): CasProviderSettings {
  if (!settings) throw invalid('cas');
  const serverUrl = settings.serverUrl.trim().replace(/\/+$/, '');
  if (providerUrlProblem(serverUrl) || new URL(serverUrl).search !== '') throw invalid('cas.serverUrl');
  const accountAttribute = settings.accountAttribute.trim();
  if (accountAttribute !== '' && (accountAttribute.length > providerLimits.claim || !claimPattern.test(accountAttribute))) throw invalid('cas.accountAttribute');
  return { serverUrl, accountAttribute };
}

function checkSecret(secret: string | undefined): string | undefined {
  if (secret === undefined) return undefined;
  if (secret.length > providerLimits.clientSecret || controlCharacters.test(secret)) throw invalid('oidc.clientSecret');
  return secret;
}

/** A save request checked field by field: what would be stored (the secret still open), or ssoProviderConfigInvalid naming the field. */
export interface CheckedProvider {
  kind: IdentityProviderKind;
  name: Localised;
  enabled: boolean;
  settings: OidcProviderSettings | CasProviderSettings;
  /** The new secret; undefined keeps the stored one, '' removes it. */
  clientSecret: string | undefined;
}

export function checkProvider(request: SaveIdentityProviderRequest): CheckedProvider {
  if (!(identityProviderKinds as readonly string[]).includes(request.kind)) throw invalid('kind');
  const name = checkName(request.name);
  if (request.kind === 'oidc') {
    if (request.cas !== undefined) throw invalid('cas');
    return { kind: 'oidc', name, enabled: request.enabled, settings: checkOidcSettings(request.oidc), clientSecret: checkSecret(request.oidc?.clientSecret) };
  }
  if (request.oidc !== undefined) throw invalid('oidc');
  return { kind: 'cas', name, enabled: request.enabled, settings: checkCasSettings(request.cas), clientSecret: undefined };
}

/** This server's callback of a kind, absolute, on `origin` (PUBLIC_URL, else the request's). */
export function callbackUrlOf(kind: IdentityProviderKind, origin: string): string {
  return `${origin}${kind === 'oidc' ? apiPaths.ssoOidcCallback : apiPaths.ssoCasCallback}`;
}

/** The OIDC back-channel logout URI of a provider, absolute. */
export function backchannelLogoutUrlOf(providerId: string, origin: string): string {
  return `${origin}${apiPaths.ssoBackchannelLogout}?providerId=${encodeURIComponent(providerId)}`;
}

function parseSettings(row: ProviderRow): OidcProviderSettings | CasProviderSettings {
  return JSON.parse(row.settings) as OidcProviderSettings | CasProviderSettings;
}

function parseName(row: ProviderRow): Localised {
  const parsed = JSON.parse(row.name_i18n) as Partial<Localised>;
  return Object.fromEntries(languageCodes.map((language) => [language, parsed[language] ?? ''])) as Localised;
}

export interface IdentityProviderStoreDeps {
  db: Kysely<DB>;
  sealer: KekSealer;
  now: () => number;
  /** SSO_PROVIDER_NETWORKS: what a provider's address may be besides a public one (none unless told). */
  networks?: ProviderNetworkPolicy;
}

/**
 * A tenant's identity providers (identity_providers): the OIDC client secret sealed under the KEK file with a purpose
 * of its own (lib/kek-seal.ts), opened only for a call to the provider, never answered and never logged.
 */
export class IdentityProviderStore {
  private readonly db: Kysely<DB>;
  private readonly sealer: KekSealer;
  private readonly now: () => number;
  private readonly networks: ProviderNetworkPolicy;

  constructor(deps: IdentityProviderStoreDeps) {
    this.db = deps.db;
    this.sealer = deps.sealer;
    this.now = deps.now;
    this.networks = deps.networks ?? new ProviderNetworkPolicy();
  }

  /**
   * ssoProviderAddressRefused when the provider's address resolves now to an address the operator's policy refuses
   * (save and test connection; every connection is checked again, lib/outbound-addresses.ts).
   */
  async checkAddress(kind: IdentityProviderKind, settings: OidcProviderSettings | CasProviderSettings): Promise<void> {
    if (kind === 'oidc') await checkProviderUrl((settings as OidcProviderSettings).discoveryUrl, 'oidc.discoveryUrl', this.networks);
    else await checkProviderUrl((settings as CasProviderSettings).serverUrl, 'cas.serverUrl', this.networks);
  }

  list(tenantCode: string): Promise<ProviderRow[]> {
    return this.db.selectFrom('identity_providers').selectAll().where('tenant_code', '=', tenantCode).orderBy('created_at').orderBy('id').execute();
  }

  /** Every provider of every tenant (campus sso list). */
  all(): Promise<ProviderRow[]> {
    return this.db.selectFrom('identity_providers').selectAll().orderBy('tenant_code').orderBy('created_at').orderBy('id').execute();
  }

  async byId(id: string): Promise<ProviderRow | undefined> {
    return this.db.selectFrom('identity_providers').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The tenant's provider of that id, or undefined (another tenant's is not found either). */
  async ofTenant(tenantCode: string, id: string): Promise<ProviderRow | undefined> {
    const row = await this.byId(id);
    return row?.tenant_code === tenantCode ? row : undefined;
  }

  /** The enabled providers of the tenant as the login page's buttons, named in `language`. */
  async buttons(tenantCode: string, language: LanguageCode): Promise<IdentityProviderButton[]> {
    const rows = await this.db
      .selectFrom('identity_providers')
      .select(['id', 'kind', 'name_i18n'])
      .where('tenant_code', '=', tenantCode)
      .where('enabled', '=', 1)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((row) => ({ id: row.id, kind: row.kind as IdentityProviderKind, name: pickLocalised(row.name_i18n, language) }));
  }

  /** Creates (no id) or changes (id) a provider of the tenant; ssoProviderUnknown for an id the tenant has not. */
  async save(tenantCode: string, request: SaveIdentityProviderRequest): Promise<ProviderRow> {
    const checked = checkProvider(request);
    await this.checkAddress(checked.kind, checked.settings);
    const now = this.now();
    const sealedSecret = (secret: string | undefined, stored: string | null) =>
      checked.kind !== 'oidc' ? null : secret === undefined ? stored : secret === '' ? null : this.sealer.sealText('sso-client-secret', secret);
    if (request.id === undefined) {
      const row: ProviderRow = {
        id: newId(),
        tenant_code: tenantCode,
        kind: checked.kind,
        name_i18n: toLocalisedJson(checked.name),
        enabled: checked.enabled ? 1 : 0,
        settings: JSON.stringify(checked.settings),
        client_secret_sealed: sealedSecret(checked.clientSecret, null),
        created_at: now,
        updated_at: now,
      };
      await this.db.insertInto('identity_providers').values(row).execute();
      return row;
    }
    const stored = await this.ofTenant(tenantCode, request.id);
    if (!stored) throw new AppError(codes.ssoProviderUnknown, { status: 404 });
    // a provider changing its kind keeps no secret of the other kind
    const keptSecret = stored.kind === checked.kind ? stored.client_secret_sealed : null;
    const changes = {
      kind: checked.kind,
      name_i18n: toLocalisedJson(checked.name),
      enabled: checked.enabled ? 1 : 0,
      settings: JSON.stringify(checked.settings),
      client_secret_sealed: sealedSecret(checked.clientSecret, keptSecret),
      updated_at: now,
    };
    await this.db.updateTable('identity_providers').set(changes).where('id', '=', stored.id).execute();
    return { ...stored, ...changes };
  }

  async setEnabled(id: string, enabled: boolean): Promise<boolean> {
    const result = await this.db.updateTable('identity_providers').set({ enabled: enabled ? 1 : 0, updated_at: this.now() }).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Removes the provider with its round trips, login tickets, session links and remembered logout tokens (the sessions it opened stay). */
  async remove(id: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('sso_round_trips').where('provider_id', '=', id).execute();
      await trx.deleteFrom('sso_login_tickets').where('provider_id', '=', id).execute();
      await trx.deleteFrom('sso_sessions').where('provider_id', '=', id).execute();
      await trx.deleteFrom('sso_logout_tokens').where('provider_id', '=', id).execute();
      const result = await trx.deleteFrom('identity_providers').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  /** What the administrator sees: never the secret, only whether one is kept. */
  view(row: ProviderRow, origin: string): IdentityProviderView {
    const kind = row.kind as IdentityProviderKind;
    const settings = parseSettings(row);
    return {
      id: row.id,
      tenantCode: row.tenant_code,
      kind,
      name: parseName(row),
      enabled: Number(row.enabled) === 1,
      oidc: kind === 'oidc' ? { ...(settings as OidcProviderSettings), hasClientSecret: row.client_secret_sealed !== null } : null,
      cas: kind === 'cas' ? (settings as CasProviderSettings) : null,
      callbackUrl: callbackUrlOf(kind, origin),
      backchannelLogoutUrl: kind === 'oidc' ? backchannelLogoutUrlOf(row.id, origin) : '',
      updatedAt: Number(row.updated_at),
    };
  }

  /**
   * The provider as its protocol client takes it, the secret opened for this call only. A secret the KEK no longer
   * opens (the KEK file lost) counts as none: the provider then refuses the client, and the administrator enters it again.
   */
  forProtocol(row: ProviderRow): ProviderForProtocol {
    const settings = parseSettings(row);
    if (row.kind === 'oidc') {
      const clientSecret = row.client_secret_sealed === null ? null : this.sealer.openText('sso-client-secret', row.client_secret_sealed);
      return { id: row.id, tenantCode: row.tenant_code, kind: 'oidc', settings: settings as OidcProviderSettings, clientSecret };
    }
    return { id: row.id, tenantCode: row.tenant_code, kind: 'cas', settings: settings as CasProviderSettings };
  }

  /** A checked request as its protocol client takes it (test connection), with the stored secret when it sends none. */
  forTest(tenantCode: string, request: SaveIdentityProviderRequest, stored: ProviderRow | undefined): ProviderForProtocol {
    const checked = checkProvider(request);
    const id = stored?.id ?? 'unsaved';
    if (checked.kind === 'oidc') {
      const storedSecret = stored?.kind === 'oidc' && stored.client_secret_sealed !== null ? this.sealer.openText('sso-client-secret', stored.client_secret_sealed) : null;
      const clientSecret = checked.clientSecret === undefined ? storedSecret : checked.clientSecret === '' ? null : checked.clientSecret;
      return { id, tenantCode, kind: 'oidc', settings: checked.settings as OidcProviderSettings, clientSecret };
    }
    return { id, tenantCode, kind: 'cas', settings: checked.settings as CasProviderSettings };
  }

  /** Seals an ID token for the logout's id_token_hint. */
  sealIdToken(idToken: string | null): string | null {
    return idToken === null ? null : this.sealer.sealText('sso-id-token', idToken);
  }

  openIdToken(sealed: string | null): string | null {
    return sealed === null ? null : this.sealer.openText('sso-id-token', sealed);
  }
}
