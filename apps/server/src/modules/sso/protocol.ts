import type { CasProviderSettings, IdentityProviderKind, IdentityProviderTestResult, LanguageCode, OidcProviderSettings } from '@campus/contracts';

// The seam between the sign-in flow (round trips, login tickets, accounts, sessions: sso-service.ts) and the two
// protocols (oidc-client.ts, cas-client.ts). A protocol client talks to the provider only; it decides nothing about
// accounts or sessions, and it throws AppError with the ssoXxx codes of @campus/contracts for what it refuses.

/** A provider as the flow hands it to its protocol client: the secret opened, for this call only. */
export type ProviderForProtocol =
  | { id: string; tenantCode: string; kind: 'oidc'; settings: OidcProviderSettings; clientSecret: string | null }
  | { id: string; tenantCode: string; kind: 'cas'; settings: CasProviderSettings };

/** What the flow keeps between Start and the callback (sso_round_trips), as the protocol client sees it. */
export interface RoundTrip {
  /** Sent to the provider and back; stored only hashed. */
  state: string;
  nonce: string;
  /** PKCE (OIDC); '' for CAS. */
  codeVerifier: string;
  /** This server's callback for the provider's kind, absolute (what is registered at the provider). */
  redirectUri: string;
}

/** Who the provider signed in: evidence the flow maps to an account of the provider's tenant. */
export interface SignedInAtProvider {
  /** The value of the configured claim or attribute (accountClaim / accountAttribute); the flow looks it up. */
  account: string;
  /** OIDC `sub`, CAS user: stable at the provider. */
  subject: string;
  /** OIDC `sid` when the provider sends one; the CAS service ticket (what single logout names). */
  providerSession: string | null;
  /** OIDC: the raw ID token, kept sealed for id_token_hint at logout; null for CAS. */
  idToken: string | null;
}

/**
 * Which sessions a provider's logout message names (back-channel logout, CAS single logout), and for a message that
 * is acted on once (the OIDC logout token, by its jti) what the flow remembers of it: the id and until when (ms) the
 * message could still be accepted; the flow refuses the same id from the same provider before then.
 */
export type ProviderLogout = ({ providerSession: string } | { subject: string }) & { once?: { id: string; acceptableUntil: number } };

export interface ProtocolClient {
  readonly kind: IdentityProviderKind;
  /** The provider's address to send the browser to. */
  authorizationUrl(provider: ProviderForProtocol, roundTrip: RoundTrip): Promise<string>;
  /** Checks the provider's redirect back (the whole callback URL) and says who signed in; throws AppError otherwise. */
  finish(provider: ProviderForProtocol, roundTrip: RoundTrip, callbackUrl: URL): Promise<SignedInAtProvider>;
  /** Where the browser goes to end the provider's session after Quit, or null when the provider offers none. */
  logoutUrl(provider: ProviderForProtocol, session: { idToken: string | null }, postLogoutRedirectUri: string): Promise<string | null>;
  /**
   * Reads and checks a logout message the provider sent this server (OIDC back-channel: the form's logout_token, a
   * JWT checked against the provider's keys; CAS single logout: the form's logoutRequest XML) and says which
   * sessions it ends; throws AppError (ssoTokenRejected, ssoResponseInvalid) for one that does not check out.
   */
  readLogout(provider: ProviderForProtocol, form: Record<string, string>): Promise<ProviderLogout>;
  /** "Test connection" before the provider is switched on: each step with its finding in `lang`. */
  test(provider: ProviderForProtocol, lang: LanguageCode): Promise<IdentityProviderTestResult>;
}
