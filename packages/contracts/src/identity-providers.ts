import type { Localised } from './languages.ts';

// A tenant's identity providers for external sign-in (issue 49, DESIGN §8b, docs/sso.md). The server's callback
// ends at the spec's landing /not-login?token=&tenantCode=&code=0, where `token` is a one-time login ticket.

export const identityProviderKinds = ['oidc', 'cas'] as const;
export type IdentityProviderKind = (typeof identityProviderKinds)[number];

/** How long the landing's one-time login ticket lives; it is exchanged once (spec §2 /not-login). */
export const ssoLoginTicketSeconds = 60;
/** How long a round trip to the provider may take, from Start to the callback (the provider's login form). */
export const ssoRoundTripSeconds = 600;
/** The most the provider's clock may differ from the server's before an ID token is refused. */
export const ssoClockSkewSeconds = 120;

/** One "Sign in with …" button of the login page (TenantSettings.identityProviders), named in the caller's language. */
export interface IdentityProviderButton {
  id: string;
  kind: IdentityProviderKind;
  name: string;
}

export interface OidcProviderSettings {
  /** The issuer's discovery document: https://…/.well-known/openid-configuration (http only on loopback). */
  discoveryUrl: string;
  clientId: string;
  /** Space-separated; `openid` is always asked for. */
  scopes: string;
  /** The ID token claim that names the account in the tenant: preferred_username, email or another. */
  accountClaim: string;
}

export interface CasProviderSettings {
  /** The CAS server's base URL, e.g. https://cas.example.edu/cas (login, p3/serviceValidate and logout are under it). */
  serverUrl: string;
  /** The attribute of the validation answer that names the account; '' means the CAS user itself. */
  accountAttribute: string;
}

/** A provider as its administrator sees it: never with its client secret, only whether one is kept. */
export interface IdentityProviderView {
  id: string;
  tenantCode: string;
  kind: IdentityProviderKind;
  name: Localised;
  enabled: boolean;
  oidc: (OidcProviderSettings & { hasClientSecret: boolean }) | null;
  cas: CasProviderSettings | null;
  /** The address to register at the provider as redirect URI or CAS service (this server's callback). */
  callbackUrl: string;
  /** OIDC only: the back-channel logout URI to register at the provider; '' for CAS (single logout posts to callbackUrl). */
  backchannelLogoutUrl: string;
  updatedAt: number;
}

/** Create (no id) or change (id) a provider; an omitted clientSecret keeps the stored one. */
export interface SaveIdentityProviderRequest {
  id?: string;
  kind: IdentityProviderKind;
  name: Localised;
  enabled: boolean;
  oidc?: OidcProviderSettings & { clientSecret?: string };
  cas?: CasProviderSettings;
}

export type IdentityProviderTestStep = 'discovery' | 'keys' | 'clock' | 'validation';

/** What "test connection" found, step by step, each in the caller's language. */
export interface IdentityProviderTestResult {
  ok: boolean;
  steps: { step: IdentityProviderTestStep; ok: boolean; detail: string }[];
  /** OIDC: the provider's clock minus the server's, in seconds, where its answer had a Date. */
  clockSkewSeconds: number | null;
}

/** POST ssoExchangeTicket. */
export interface ExchangeLoginTicketRequest {
  ticket: string;
  tenantCode: string;
}

/** The logout reply's data when the session came from a provider that can end its own session too. */
export interface LogoutReply {
  /** Where the browser goes next to end the provider's session (RP-initiated logout, CAS /logout); absent otherwise. */
  providerLogoutUrl?: string;
}
