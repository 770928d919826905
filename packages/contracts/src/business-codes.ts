/**
 * Result codes of the envelope `{code, msg, data, recordCount?}` (DESIGN §5).
 * A call succeeded when `code % 10 === 0`; every failure below has a non-zero last digit.
 */
export const codes = {
  ok: 0,
  tokenInvalid: 31,
  tokenExpired: 32,
  accountDisabled: 246,
  badRequest: 101,
  accountOrPasswordWrong: 111,
  accountLocked: 112,
  captchaRequired: 113,
  captchaWrong: 114,
  captchaExpired: 115,
  tenantRequired: 116,
  tenantUnknown: 117,
  ldapDisabled: 121,
  ldapUnavailable: 122,
  ldapNoLocalAccount: 123,
  noPermission: 131,
  notFound: 141,
  passwordPolicy: 151,
  passwordReused: 152,
  oldPasswordWrong: 153,
  tooManyRequests: 161,
  signInThrottled: 162,
  licenceTampered: 171,
  licenceOtherInstallation: 172,
  licenceNotActivatable: 173,
  licenceNoTrustedKey: 174,
  licenceNotLicFile: 175,
  licenceFileTooLarge: 176,
  licenceCodeConflict: 177,
  trialAlreadyRegistered: 178,
  adminPasswordWrong: 179,
  trialNotNeeded: 181,
  passwordChangeRequired: 191,
  licenceRequired: 192,
  noSubsystem: 193,
  versionNotReportable: 201,
  // gate set-up and card sign-in (docs/cards.md)
  notGateSystem: 211,
  systemNotInitialised: 212,
  systemAlreadyInitialised: 213,
  systemSecretMissing: 214,
  customerPasswordWrong: 215,
  customerNoMismatch: 216,
  notMotherCard: 217,
  motherCardUsed: 218,
  masterCardRejected: 219,
  masterCardTokenInvalid: 221,
  setUpStepMissing: 222,
  setUpStepDone: 223,
  cardWriteUnknown: 224,
  cardAlreadyRegistered: 225,
  cardNotValid: 226,
  cardOutdated: 227,
  cardLost: 228,
  cardFrozen: 229,
  cardNotInUse: 231,
  cardUnknown: 232,
  readerNotTrusted: 233,
  cardOtherOperator: 234,
  notCardLogin: 235,
  superAdminMissing: 236,
  customerNoOtherInstallation: 237,
  cardActionNotAllowed: 238,
  cardAlreadyExists: 239,
  keyCardCannotRecover: 241,
  operatorCannotHoldCard: 242,
  notTheSelectedCard: 243,
  lastAdminCardInUse: 244,
  keyCardTrustLocked: 248,
  /** After the set-up a mother-card swipe needs the customer password typed by the operator (issue 46). */
  customerPasswordRequired: 245,
  /** System initialisation refuses a customer password among the common ones (customer-password-rules.ts). */
  customerPasswordWeak: 247,
  /** The tenant signs in with the administrator card and its card password: the card alone is refused. */
  cardPasswordRequired: 249,
  // sub-systems registered by an operator (SubApp/Register)
  subAppCodeTaken: 251,
  subAppBasePathTaken: 252,
  subAppBasePathReserved: 253,
  subAppEntryInvalid: 254,
  subAppOriginInvalid: 255,
  subAppPageIdTaken: 256,
  subAppPagePathOutside: 257,
  subAppPageParentInvalid: 258,
  subAppPageTooDeep: 259,
  subAppFunctionCodeUnknown: 261,
  subAppBuiltIn: 262,
  subAppNotRegistered: 263,
  accountUnknown: 264,
  subAppOriginWildcard: 265,
  subAppOriginPlainHttp: 266,
  subAppPathNotPlain: 267,
  /** A name a manifest or an operator gives holds a control or format character, or '<' / '>'. */
  displayTextInvalid: 268,
  subAppPathClimbsOut: 269,
  // the registry of trusted card issuers (issue 46 item 1, docs/cards.md "Trusted issuers")
  issuerTrustExpired: 271,
  issuerTrustRevoked: 272,
  issuerChallengeInvalid: 273,
  issuerKeyFetchTooOften: 274,
  trustedIssuerUnknown: 275,
  // what the whole installation serves against what one tenant governs (docs/installation-and-tenants.md)
  /** The act changes what every tenant is served (sub-app registrations, licences): an installation administrator only (403). */
  installationAdminRequired: 281,
  /** A tenant's system administrator grants or revokes only within his own tenant (403). */
  grantOutsideTenant: 282,
  // a sub-app manifest's system code (issue 48 item 18)
  /** The manifest's appNo does not fit the system code pattern (subAppManifestRules.appNoPattern): HTTP 400. */
  subAppCodeInvalid: 315,
  // external sign-in through a tenant's identity provider, OpenID Connect or CAS (issue 49, docs/sso.md)
  /** No enabled identity provider of that id in that tenant (HTTP 404). */
  ssoProviderUnknown: 321,
  /** The round trip's `state` is missing, changed, expired or already used (HTTP 400). */
  ssoStateInvalid: 322,
  /** The identity provider did not answer, or not in time (discovery, keys, token or ticket validation; HTTP 502). */
  ssoProviderUnreachable: 323,
  /** The provider's answer failed a check: ID token signature, issuer, audience, nonce, expiry; a code used twice (HTTP 401). */
  ssoTokenRejected: 324,
  /** CAS refused the service ticket (INVALID_TICKET, INVALID_SERVICE, ...; HTTP 401). */
  ssoTicketRejected: 325,
  /** The provider signed in someone who has no account in the tenant (HTTP 403). */
  ssoAccountUnknown: 326,
  /** The provider's answer lacks the claim or attribute that names the account (HTTP 401). */
  ssoAccountClaimMissing: 327,
  /** The one-time login ticket of /not-login is unknown, used or older than 60 s (HTTP 401). */
  ssoLoginTicketInvalid: 328,
  /** An identity provider's settings are not valid (HTTP 400): the message names the field. */
  ssoProviderConfigInvalid: 329,
  /** The provider's answer is not a response of its protocol (malformed XML, a DOCTYPE or entity; HTTP 502). */
  ssoResponseInvalid: 331,
  /** The provider sent the browser back without signing the user in (an error such as access_denied; HTTP 401). */
  ssoSignInDeclined: 336,
  /**
   * The provider's address is on a network the operator has not opened to identity providers (loopback, private,
   * link-local, ...: SSO_PROVIDER_NETWORKS; HTTP 400 on save and test connection). At sign-in the user sees
   * ssoProviderUnreachable instead, and the operation log says the address was refused by policy.
   */
  ssoProviderAddressRefused: 337,
  /** The server's storage (database or data folder) is full (HTTP 507): nothing was written; the administrator must free space. */
  storageFull: 997,
  /** The database cannot be reached or dropped the connection (HTTP 503): nothing was answered from it, try again. */
  serviceUnavailable: 998,
  internalError: 999,
} as const;

export type BusinessCodeName = keyof typeof codes;
export type BusinessCode = (typeof codes)[BusinessCodeName];

export function isSuccessCode(code: number): boolean {
  return code % 10 === 0;
}

/** Codes after which the shell clears its storage and returns to /login (spec §8). */
export const signOutCodes: readonly number[] = [codes.tokenInvalid, codes.tokenExpired, codes.accountDisabled];
/** Of those, the ones that show no message. */
export const silentSignOutCodes: readonly number[] = [codes.tokenInvalid, codes.tokenExpired];
