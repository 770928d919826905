import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { codes, loginTypes, ssoLoginTicketSeconds, ssoRoundTripSeconds } from '@campus/contracts';
import type { IdentityProviderKind, IdentityProviderTestResult, LanguageCode, LoginInfo, OperationResult, SaveIdentityProviderRequest } from '@campus/contracts';
import type { DB } from '../../db/schema.ts';
import { AppError } from '../../http/envelope.ts';
import { sha256Hex } from '../../lib/hash.ts';
import { providerNetworksSetting } from '../../lib/outbound-addresses.ts';
import { isSameOriginPath } from '../../lib/same-origin-path.ts';
import type { AccountService } from '../account/account-service.ts';
import type { LoginService } from '../auth/login-service.ts';
import { installationWide } from '../operation-log/operation-log-service.ts';
import type { OperationLogService } from '../operation-log/operation-log-service.ts';
import type { SessionService } from '../sessions/session-service.ts';
import { callbackUrlOf } from './identity-providers.ts';
import type { IdentityProviderStore, ProviderRow } from './identity-providers.ts';
import type { ProtocolClient, ProviderForProtocol, ProviderLogout, RoundTrip, SignedInAtProvider } from './protocol.ts';

/** The protocol client of each kind (services.ts: OidcClient, CasClient; tests hand in their own). */
export type ProtocolClients = Readonly<Record<IdentityProviderKind, ProtocolClient>>;

export interface SsoServiceDeps {
  db: Kysely<DB>;
  store: IdentityProviderStore;
  clients: ProtocolClients;
  account: AccountService;
  login: Pick<LoginService, 'openSession'>;
  sessions: Pick<SessionService, 'revoke'>;
  logs: OperationLogService;
  now: () => number;
}

/** The landing of every external sign-in (spec §2 /not-login). */
export const landingPath = '/not-login';
const fromPathMaxLength = 2048;

/** A business code's name (ssoStateInvalid) for the operation log's detail. */
const codeNames = new Map<number, string>(Object.entries(codes).map(([name, code]) => [code, name]));

function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * What a browser (or a provider posting a logout) is told of a failure: an address the operator's policy refused is
 * "cannot be reached" to them; only the operation log and the administrator's save and test connection say more.
 */
function toCaller(error: AppError): AppError {
  return error.code === codes.ssoProviderAddressRefused ? new AppError(codes.ssoProviderUnreachable, { status: 502 }) : error;
}

/** The landing's address for a failure: the code and its message in the round trip's language (plan: /not-login?code=&msg=). */
export function failureLocation(error: AppError, language: LanguageCode): string {
  const shown = toCaller(error);
  return `${landingPath}?${new URLSearchParams({ code: String(shown.code), msg: shown.messageIn(language) }).toString()}`;
}

/** A failure as the operation log names it: the code's name; a refused address as the caller saw it, and why. */
function logName(error: AppError): string {
  if (error.code === codes.ssoProviderAddressRefused) return `ssoProviderUnreachable (the address is refused by policy, ${providerNetworksSetting})`;
  return codeNames.get(error.code) ?? String(error.code);
}

/** A path on this server, or '' (anything else is dropped, never followed). */
export function keptFromPath(value: string | undefined): string {
  return value !== undefined && value.length <= fromPathMaxLength && isSameOriginPath(value) ? value : '';
}

export interface StartInput {
  providerId: string;
  tenantCode: string;
  fromPath: string | undefined;
  lang: LanguageCode;
  /** PUBLIC_URL, else the request's origin: where the provider sends the browser back. */
  origin: string;
  clientIp: string;
}

export interface CallbackInput {
  kind: IdentityProviderKind;
  /** The `state` of the provider's redirect back (OIDC and CAS alike). */
  state: string | undefined;
  /** The whole callback URL as the browser asked for it. */
  callbackUrl: URL;
  origin: string;
  /** The request's language: the failure's when no round trip names one. */
  lang: LanguageCode;
  clientIp: string;
}

/** A failure of the round trip, with what the operation log says of it. */
class RoundTripFailure extends Error {
  constructor(
    readonly error: AppError,
    readonly language: LanguageCode,
    readonly tenantCode: string | null,
    readonly account: string,
    readonly result: OperationResult,
    readonly providerId: string | null,
  ) {
    super(`sso round trip failed with ${error.code}`);
  }
}

/**
 * The external sign-in (issue 49, docs/sso.md): Start stores a round trip and sends the browser to the provider; the
 * callback finds it by its state (once), lets the kind's protocol client check the provider's answer, finds the
 * account in the provider's tenant and writes a one-time login ticket the landing exchanges (once, within 60 s) for a
 * session of login type 4. The provider's logout messages end the sessions it names, on every node (they are rows).
 */
export class SsoService {
  constructor(private readonly deps: SsoServiceDeps) {}

  private client(kind: string): ProtocolClient {
    const client = this.deps.clients[kind as IdentityProviderKind] as ProtocolClient | undefined;
    if (!client) throw new AppError(codes.ssoProviderUnknown, { status: 404 });
    return client;
  }

  /** The enabled provider of that id in that tenant, or ssoProviderUnknown. */
  private async enabledProvider(tenantCode: string, providerId: string): Promise<ProviderRow> {
    const row = await this.deps.store.ofTenant(tenantCode, providerId);
    if (!row || Number(row.enabled) !== 1) throw new AppError(codes.ssoProviderUnknown, { status: 404 });
    return row;
  }

  /** Where Start sends the browser: the provider's login, or the landing with the failure (logged). */
  async start(input: StartInput): Promise<string> {
    try {
      const row = await this.enabledProvider(input.tenantCode, input.providerId);
      const now = this.deps.now();
      const roundTrip: RoundTrip = {
        state: randomToken(),
        nonce: randomToken(),
        codeVerifier: row.kind === 'oidc' ? randomToken() : '',
        redirectUri: callbackUrlOf(row.kind as IdentityProviderKind, input.origin),
      };
      const location = await this.client(row.kind).authorizationUrl(this.deps.store.forProtocol(row), roundTrip);
      await this.deps.db
        .insertInto('sso_round_trips')
        .values({
          state_hash: sha256Hex(roundTrip.state),
          provider_id: row.id,
          tenant_code: row.tenant_code,
          nonce: roundTrip.nonce,
          code_verifier: roundTrip.codeVerifier,
          from_path: keptFromPath(input.fromPath),
          lang: input.lang,
          created_at: now,
          expires_at: now + ssoRoundTripSeconds * 1000,
          used_at: null,
        })
        .execute();
      return location;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      // logged in the tenant named; a Start for no tenant at all is nobody's to read
      const tenant = await this.deps.account.tenant(input.tenantCode);
      if (tenant) await this.logFailure(new RoundTripFailure(error, input.lang, tenant.code, '', 'failure', input.providerId), input.clientIp);
      return failureLocation(error, input.lang);
    }
  }

  /** Where the provider's redirect back sends the browser: the landing with a login ticket, or with the failure (logged). */
  async callback(input: CallbackInput): Promise<string> {
    try {
      return await this.finishRoundTrip(input);
    } catch (error) {
      const failure = error instanceof RoundTripFailure ? error : error instanceof AppError ? new RoundTripFailure(error, input.lang, null, '', 'failure', null) : null;
      if (!failure) throw error;
      await this.logFailure(failure, input.clientIp);
      return failureLocation(failure.error, failure.language);
    }
  }

  private async finishRoundTrip(input: CallbackInput): Promise<string> {
    const now = this.deps.now();
    if (input.state === undefined || input.state === '') throw new AppError(codes.ssoStateInvalid, { status: 400 });
    const stateHash = sha256Hex(input.state);
    // used once: the first callback with this state takes it, a replay or a second node finds it taken
    const taken = await this.deps.db
      .updateTable('sso_round_trips')
      .set({ used_at: now })
      .where('state_hash', '=', stateHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) throw new AppError(codes.ssoStateInvalid, { status: 400 });
    const trip = await this.deps.db.selectFrom('sso_round_trips').selectAll().where('state_hash', '=', stateHash).executeTakeFirstOrThrow();
    const language = trip.lang as LanguageCode;
    const fail = (error: AppError, account = '', result: OperationResult = 'failure') => new RoundTripFailure(error, language, trip.tenant_code, account, result, trip.provider_id);

    let row: ProviderRow;
    let signedIn: SignedInAtProvider;
    try {
      row = await this.enabledProvider(trip.tenant_code, trip.provider_id);
      // the state of an OIDC round trip is no CAS callback's, and the other way round
      if (row.kind !== input.kind) throw new AppError(codes.ssoStateInvalid, { status: 400 });
      const roundTrip: RoundTrip = { state: input.state, nonce: trip.nonce, codeVerifier: trip.code_verifier, redirectUri: callbackUrlOf(input.kind, input.origin) };
      signedIn = await this.client(row.kind).finish(this.deps.store.forProtocol(row), roundTrip, input.callbackUrl);
    } catch (error) {
      if (error instanceof AppError) throw fail(error);
      throw error;
    }
    const user = signedIn.account === '' ? undefined : await this.deps.account.findUser(row.tenant_code, signedIn.account);
    if (!user) throw fail(new AppError(codes.ssoAccountUnknown, { status: 403 }), signedIn.account, 'no-local-account');
    if (user.is_disabled === 1) throw fail(new AppError(codes.accountDisabled, { status: 403 }), signedIn.account, 'disabled');

    const ticket = randomToken();
    await this.deps.db
      .insertInto('sso_login_tickets')
      .values({
        ticket_hash: sha256Hex(ticket),
        provider_id: row.id,
        tenant_code: row.tenant_code,
        user_id: user.id,
        provider_subject: signedIn.subject,
        provider_session: signedIn.providerSession,
        id_token_sealed: this.deps.store.sealIdToken(signedIn.idToken),
        from_path: trip.from_path,
        created_at: now,
        expires_at: now + ssoLoginTicketSeconds * 1000,
        used_at: null,
      })
      .execute();
    const query = new URLSearchParams({ token: ticket, tenantCode: row.tenant_code, code: '0' });
    if (trip.from_path !== '') query.set('fromPath', trip.from_path);
    return `${landingPath}?${query.toString()}`;
  }

  /**
   * The landing trades the login ticket for the session, once, within ssoLoginTicketSeconds: login type 4 (no
   * forced password change; a user without any sub-system gets none, spec §4), linked to the provider's session.
   */
  async exchange(ticket: string, tenantCode: string, clientIp: string): Promise<LoginInfo> {
    const now = this.deps.now();
    const ticketHash = sha256Hex(ticket);
    const taken = await this.deps.db
      .updateTable('sso_login_tickets')
      .set({ used_at: now })
      .where('ticket_hash', '=', ticketHash)
      .where('tenant_code', '=', tenantCode)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) throw new AppError(codes.ssoLoginTicketInvalid, { status: 401 });
    const row = await this.deps.db.selectFrom('sso_login_tickets').selectAll().where('ticket_hash', '=', ticketHash).executeTakeFirstOrThrow();
    const user = await this.deps.account.userById(row.user_id);
    if (!user || user.tenant_code !== tenantCode) throw new AppError(codes.ssoAccountUnknown, { status: 403 });
    const info = await this.deps.login.openSession(user, { account: user.account, tenantCode, clientIp }, 'sso-login', loginTypes.thirdParty);
    await this.deps.db
      .insertInto('sso_sessions')
      .values({
        token_hash: sha256Hex(info.token),
        provider_id: row.provider_id,
        provider_subject: row.provider_subject,
        provider_session: row.provider_session,
        id_token_sealed: row.id_token_sealed,
        created_at: now,
      })
      .execute();
    return info;
  }

  /**
   * Where the browser goes after Quit to end the provider's session too, or null: the session came from no provider,
   * or its provider offers no logout (or cannot say where now: Quit still ends the session here).
   */
  async providerLogoutUrl(tokenHash: string, origin: string): Promise<string | null> {
    const link = await this.deps.db.selectFrom('sso_sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    if (!link) return null;
    const row = await this.deps.store.byId(link.provider_id);
    if (!row) return null;
    try {
      return await this.client(row.kind).logoutUrl(this.deps.store.forProtocol(row), { idToken: this.deps.store.openIdToken(link.id_token_sealed) }, `${origin}/login`);
    } catch (error) {
      if (error instanceof AppError) return null;
      throw error;
    }
  }

  /** OIDC back-channel logout: the provider's logout token ends the sessions it names. */
  async backchannelLogout(providerId: string, form: Record<string, string>, clientIp: string): Promise<number> {
    const row = await this.deps.store.byId(providerId);
    if (!row || row.kind !== 'oidc') throw new AppError(codes.ssoProviderUnknown, { status: 404 });
    const logout = await this.readLogout(row, form, clientIp);
    // each logout token acts once (Back-Channel Logout 1.0, 2.4 jti, 2.6 step 8; 2.8: a refused one is answered 400)
    const refuse = async (why: string) => {
      await this.logs(row.tenant_code, '', 'failure', `provider ${row.id}: ssoTokenRejected (${why})`, clientIp, 'sso-logout');
      return new AppError(codes.ssoTokenRejected, { status: 400 });
    };
    if (!logout.once) throw await refuse('no jti');
    const jtiHash = sha256Hex(logout.once.id);
    if (!(await this.remember(row.id, jtiHash, logout.once.acceptableUntil))) throw await refuse('replayed logout token');
    try {
      return await this.endSessions(row, logout, clientIp);
    } catch (error) {
      // not acted on: the provider's retry of the same token may be
      await this.deps.db.deleteFrom('sso_logout_tokens').where('provider_id', '=', row.id).where('jti_hash', '=', jtiHash).execute();
      throw error;
    }
  }

  /**
   * Remembers a logout token's jti (hashed) for its provider: true when this call is the first, false when the token
   * was already acted on, here or on another node (the primary key makes the insert of the second do nothing).
   * Pruned with the sessions (SessionService.pruneEnded, pruneEndedSsoRows) once the token could no longer be accepted.
   */
  private async remember(providerId: string, jtiHash: string, acceptableUntil: number): Promise<boolean> {
    const now = this.deps.now();
    const inserted = await this.deps.db
      .insertInto('sso_logout_tokens')
      .values({ provider_id: providerId, jti_hash: jtiHash, created_at: now, expires_at: Math.max(acceptableUntil, now) })
      .onConflict((oc) => oc.columns(['provider_id', 'jti_hash']).doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  /**
   * CAS single logout, posted to the service (callback) URL: the provider is the one the URL names (providerId, or
   * the round trip of its state), else each CAS provider in turn until one reads the message.
   */
  async casSingleLogout(named: { providerId?: string; state?: string }, form: Record<string, string>, clientIp: string): Promise<number> {
    let candidates: ProviderRow[];
    const providerId =
      named.providerId ?? (named.state ? (await this.deps.db.selectFrom('sso_round_trips').select('provider_id').where('state_hash', '=', sha256Hex(named.state)).executeTakeFirst())?.provider_id : undefined);
    if (providerId !== undefined) {
      const row = await this.deps.store.byId(providerId);
      candidates = row && row.kind === 'cas' ? [row] : [];
    } else {
      candidates = await this.deps.db.selectFrom('identity_providers').selectAll().where('kind', '=', 'cas').orderBy('created_at').execute();
    }
    if (candidates.length === 0) throw new AppError(codes.ssoProviderUnknown, { status: 404 });
    let lastError: AppError | null = null;
    for (const row of candidates) {
      let logout: ProviderLogout;
      try {
        logout = await this.client(row.kind).readLogout(this.deps.store.forProtocol(row), form);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        lastError = error;
        continue;
      }
      return this.endSessions(row, logout, clientIp);
    }
    const error = lastError ?? new AppError(codes.ssoResponseInvalid, { status: 400 });
    await this.logs(candidates[0]!.tenant_code, '', 'failure', `provider ${candidates[0]!.id}: ${logName(error)}`, clientIp, 'sso-logout');
    throw toCaller(error);
  }

  private async readLogout(row: ProviderRow, form: Record<string, string>, clientIp: string): Promise<ProviderLogout> {
    try {
      return await this.client(row.kind).readLogout(this.deps.store.forProtocol(row), form);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      await this.logs(row.tenant_code, '', 'failure', `provider ${row.id}: ${logName(error)}`, clientIp, 'sso-logout');
      throw toCaller(error);
    }
  }

  /** Revokes every session of the provider the logout names (rows: every node refuses them at their next call). */
  private async endSessions(row: ProviderRow, logout: ProviderLogout, clientIp: string): Promise<number> {
    let query = this.deps.db.selectFrom('sso_sessions').select('token_hash').where('provider_id', '=', row.id);
    query = 'providerSession' in logout ? query.where('provider_session', '=', logout.providerSession) : query.where('provider_subject', '=', logout.subject);
    const links = await query.execute();
    let ended = 0;
    for (const link of links) if (await this.deps.sessions.revoke(link.token_hash)) ended += 1;
    await this.logs(row.tenant_code, '', 'success', `provider ${row.id}: ${ended} session(s) ended`, clientIp, 'sso-logout');
    return ended;
  }

  /** "Test connection": the kind's client tries the settings (the stored secret when the request sends none). */
  async test(tenantCode: string, request: SaveIdentityProviderRequest, lang: LanguageCode): Promise<IdentityProviderTestResult> {
    const stored = request.id === undefined ? undefined : await this.deps.store.ofTenant(tenantCode, request.id);
    if (request.id !== undefined && !stored) throw new AppError(codes.ssoProviderUnknown, { status: 404 });
    const provider: ProviderForProtocol = this.deps.store.forTest(tenantCode, request, stored);
    await this.deps.store.checkAddress(provider.kind, provider.settings);
    try {
      return await this.client(provider.kind).test(provider, lang);
    } catch (error) {
      // a provider that does not answer is what the test is there to find: a finding, not a failure of the call
      if (!(error instanceof AppError) || error.code === codes.ssoProviderConfigInvalid || error.code === codes.ssoProviderAddressRefused) throw error;
      return { ok: false, steps: [{ step: provider.kind === 'oidc' ? 'discovery' : 'validation', ok: false, detail: error.messageIn(lang) }], clockSkewSeconds: null };
    }
  }

  /** A failure without a round trip (a changed, replayed or expired state) belongs to no tenant: the installation's log. */
  private logFailure(failure: RoundTripFailure, clientIp: string): Promise<void> {
    const name = logName(failure.error);
    return this.logs(failure.tenantCode ?? installationWide, failure.account, failure.result, `provider ${failure.providerId ?? '?'}: ${name}`, clientIp, 'sso-login');
  }

  private logs(tenantCode: string, account: string, result: OperationResult, detail: string, clientIp: string, action: 'sso-login' | 'sso-logout'): Promise<void> {
    return this.deps.logs.record({ tenantCode, account, action, result, clientIp, detail: detail.slice(0, 200) });
  }
}
