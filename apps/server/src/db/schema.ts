import type { Generated } from 'kysely';
import type { CustomerKeyDerivation } from '@campus/card-crypto';

/**
 * Table types. Times are epoch milliseconds, booleans 0/1, localised texts JSON objects
 * ({"zh-CN": …, "zh-MO": …, "en-US": …}) stored as text — the same on SQLite and PostgreSQL.
 * Each table belongs to one area (named in the comment); other areas use that area's service.
 */
export interface TenantsTable {
  // account
  code: string;
  name_i18n: string;
  system_name_i18n: string;
  header_logo_id: string | null;
  login_logo_id: string | null;
  login_bg_id: string | null;
  system_logo_id: string | null;
  /** Colour scheme of the main layout (one of skinCodes; migration 0002, default 'DASUI001'). */
  skin: Generated<string>;
  created_at: number;
  /** How its administrators sign in with their card: one of cardLoginModes (migration 0023, default 'card-and-password'). */
  card_login: Generated<string>;
}

export interface UsersTable {
  // account
  id: string;
  tenant_code: string;
  account: string;
  name: string;
  password_hash: string;
  digest_mode: string;
  is_system_admin: number;
  /** 1: may change what the whole installation serves over HTTP; set only by the operator (migration 0021). */
  is_installation_admin: Generated<number>;
  is_disabled: number;
  is_first_login: number;
  pwd_edit_reason: number | null;
  pwd_locking_time: number | null;
  language: string;
  utc_diff: number;
  created_at: number;
}

export interface SessionsTable {
  // auth
  token_hash: string;
  user_id: string;
  tenant_code: string;
  account: string;
  login_type: number;
  created_at: number;
  last_seen_at: number;
  idle_expires_at: number;
  absolute_expires_at: number;
  revoked_at: number | null;
  /** 1 when the password must be changed before anything else (decided at sign-in). */
  password_change_required: Generated<number>;
  /** The administrator login card of a card sign-in (login type 3); null otherwise (migration 0014). */
  card_id: Generated<string | null>;
}

export interface CaptchasTable {
  // auth
  key_hash: string;
  answer_hash: string;
  expires_at: number;
}

export interface LoginFailuresTable {
  // auth: scope 'pair' (key tenant|account|address), 'account' (key tenant|account) or 'address' (key client ip)
  scope: string;
  key: string;
  failures: number;
  lock_count: number;
  /** Lock end (pair, account) or throttle end (address), epoch ms. */
  locked_until: number | null;
  updated_at: number;
  /** scope 'account': JSON list of the addresses its failures came from. */
  addresses: string | null;
}

export interface OperationLogsTable {
  // operation-log
  id: string;
  tenant_code: string;
  account: string;
  action: string;
  result: string;
  client_ip: string;
  detail: string | null;
  created_at: number;
}

export interface MenuSystemsTable {
  // menu
  id: string;
  app_no: string;
  app_id: string;
  front_routing_addr: string;
  label_i18n: string;
  sort_num: number;
}

export interface MenuPagesTable {
  // menu
  id: string;
  app_no: string;
  parent_id: string | null;
  path: string;
  name: string;
  title_i18n: string;
  sort_num: number;
  is_func_right: number;
  func_right_perms: string;
  is_side: number;
  icon: string | null;
  /** Same-origin backend page path shown in a frame (report pages); null for sub-application pages. */
  frame_url: string | null;
}

export interface PermissionGrantsTable {
  // menu: the systems and function codes a user holds
  user_id: string;
  app_code: string;
  func_ids: string;
}

export interface LicencesTable {
  // licence: one uploaded licence file or the installation's trial (migration 0009 replaced 0001's table)
  id: string;
  /** The licence code; unique, so one trial per installation is kept by its fixed code. */
  code: string;
  /** The `.lic` file as uploaded (re-verified whenever licences are evaluated); null for a trial. */
  file_text: string | null;
  /** SHA-256 hex of file_text; null for a trial. */
  file_hash: string | null;
  is_trial: number;
  customer_no: string;
  customer_name: string;
  prd_pkg_category: string;
  is_formal: number;
  begin_time: number | null;
  end_time: number | null;
  emp_count: number;
  is_has_mobile: number;
  is_permit_openapi: number;
  is_limit_device: number;
  /** JSON LicenceAppEdition[]. */
  infos: string;
  /** JSON LicenceDeviceLimit[]. */
  devices: string;
  activate_time: number | null;
  /** 0 not activated, 5 normal (the one in effect), 6 replaced. */
  state: number;
  created_at: number;
}

/** The id of installation's one row. */
export const installationRowId = 'this';

export interface InstallationTable {
  // licence: this installation's identity and the latest time seen (one row, id 'this'; migration 0009)
  id: string;
  customer_no: string;
  system_code: string;
  /** Monotonic maximum of the clock seen when licences were evaluated (epoch ms). */
  latest_seen: number;
  created_at: number;
  /** How the installation was first seeded: 'demo', 'production', or null (unknown). Only 'demo' trusts the test licence keys. */
  seed: Generated<string | null>;
}

export interface OssObjectsTable {
  // oss
  id: string;
  content_type: string;
  body: Uint8Array;
  created_at: number;
}

export interface ServerKeysTable {
  // password-seal: key pairs the installation made for itself, one row per purpose (never logged)
  name: string;
  private_key: string;
  public_key: string;
  created_at: number;
}

export interface BackupLogsTable {
  // backup-log: one backup of this installation (migration 0005)
  id: string;
  name: string;
  /** Epoch ms the backup was taken. */
  backup_time: number;
  file_path: string;
  /** Host that holds the file. */
  addr: string;
  retention_day: number;
  /** Bytes. */
  size: number;
  remarks: Generated<string>;
  created_at: number;
}

export interface DepartmentsTable {
  // enterprise: a department of a tenant's organisation tree (migration 0006)
  id: string;
  tenant_code: string;
  name: string;
  /** The parent department; null for a root. */
  parent_id: string | null;
  sort_num: number;
  created_at: number;
}

export interface EmployeesTable {
  // enterprise: an employee of a tenant, in one department (migration 0006)
  id: string;
  tenant_code: string;
  /** Employee number, unique within the tenant. */
  code: string;
  name: string;
  department_id: string;
  created_at: number;
}

export interface ProgramVersionsTable {
  // version: the latest version a program reported from an address (migration 0007)
  address: string;
  service_name: string;
  version: string;
  /** Epoch ms of the latest report. */
  reported_at: number;
}

export interface GateInstallationTable {
  // gm-account: the gate set-up of this installation (one row, id 'this'; migration 0014)
  id: string;
  customer_no: string;
  mother_fixed_no: string;
  /** The mother card's system key code (hex). */
  sys_key_code: string;
  /** SHA-256 of the mother card's proof (its init MAC, hex): what MasterCardVerify compares. */
  mother_proof_hash: string;
  /** Key id of the system key (hex, 16 digits). */
  kid: string;
  /** The system key sealed under the key-encryption key (system-key-vault.ts). */
  sealed_system_key: string;
  /** The system key sealed under the customer's key, the mother card's salt (hex): what a system key card carries. */
  customer_sealed_key: string;
  mother_card_salt: string;
  /** The K_cust of customer_sealed_key: 'pbkdf2-sm3' (before migration 0022) or 'argon2id' (card-crypto). */
  customer_key_derivation: Generated<CustomerKeyDerivation>;
  initialised_at: number;
}

export interface PreparedCardWritesTable {
  // card-write: phase one of a two-phase card write, until confirmed or expired
  id_hash: string;
  /** 'systemInit', 'systemKeyCard', 'superAdminCard', 'cardPassword'. */
  purpose: string;
  fixed_no: string;
  /** SHA-256 of the image to write (hex). */
  image_hash: string;
  /** What the confirm applies (JSON; secrets in it are sealed). */
  payload: string;
  expires_at: number;
  created_at: number;
}

export interface MasterCardTokensTable {
  // gm-account
  token_hash: string;
  created_at: number;
  expires_at: number;
  /** The SM2 public key of the card issuer that read the mother card (null: a token made before 0018). */
  device_public_key: string | null;
}

export interface TrustedCardIssuersTable {
  // gm-account: card issuers the system key may be sealed to (by their SM2 public key)
  public_key: string;
  /** 'master-card' or 'key-card:<fixedNo>' (of the last trust or renewal). */
  trusted_by: string;
  /** The first trust. */
  trusted_at: number;
  /** The last key fetch (the trust's time until one). */
  last_used_at: number;
  // 0020: the registry (docs/cards.md "Trusted issuers")
  device_id: Generated<string>;
  /** The PC's name as the issuer reported it in its signed challenge. */
  host_name: Generated<string>;
  /** The address of the last trust or renewal. */
  client_ip: Generated<string>;
  renewed_at: Generated<number>;
  expires_at: Generated<number>;
  last_fetch_ip: Generated<string>;
  revoked_at: number | null;
  revoked_by: string | null;
}

export interface IssuerKeyChallengesTable {
  // gm-account: one-time challenges a card issuer signs to fetch the system key (0020)
  challenge_hash: string;
  device_public_key: string;
  client_ip: string;
  created_at: number;
  expires_at: number;
}

export interface SystemKeyCardsTable {
  // system-key-card
  id: string;
  kind_num: number;
  /** Not unique: a card issued again after a recycle has a row per issue; one live row per number (0018). */
  fixed_no: string;
  state: number;
  issue_seq: number;
  created_at: number;
  updated_at: number;
}

export interface IdentityProvidersTable {
  // sso
  id: string;
  tenant_code: string;
  /** 'oidc' | 'cas' (IdentityProviderKind). */
  kind: string;
  /** JSON Localised: the "Sign in with …" name in the three languages. */
  name_i18n: string;
  enabled: number;
  /** JSON OidcProviderSettings or CasProviderSettings: nothing secret. */
  settings: string;
  /** The OIDC client secret, sealed at rest; never answered, never logged. */
  client_secret_sealed: string | null;
  created_at: number;
  updated_at: number;
}

export interface SsoRoundTripsTable {
  // sso
  /** SHA-256 of the `state` sent to the provider: one row per Start, used once by the callback. */
  state_hash: string;
  provider_id: string;
  tenant_code: string;
  nonce: string;
  /** PKCE code verifier (OIDC); '' for CAS. */
  code_verifier: string;
  /** A same-origin path checked at Start, or ''. */
  from_path: string;
  lang: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface SsoLoginTicketsTable {
  // sso
  /** SHA-256 of the one-time ticket /not-login receives; exchanged once, within ssoLoginTicketSeconds. */
  ticket_hash: string;
  provider_id: string;
  tenant_code: string;
  user_id: string;
  provider_subject: string;
  /** OIDC `sid` or the CAS service ticket: what the provider's logout names. */
  provider_session: string | null;
  /** The ID token, sealed: the id_token_hint of RP-initiated logout. */
  id_token_sealed: string | null;
  from_path: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface SsoSessionsTable {
  // sso
  /** The shell session (sessions.token_hash) a provider's sign-in opened. */
  token_hash: string;
  provider_id: string;
  provider_subject: string;
  provider_session: string | null;
  id_token_sealed: string | null;
  created_at: number;
}

export interface SsoLogoutTokensTable {
  // sso
  provider_id: string;
  /** SHA-256 of the logout token's jti: the token was acted on once, a replay is refused. */
  jti_hash: string;
  created_at: number;
  /** When the token could no longer be accepted anyway (its exp or iat bound, plus the clock skew); pruned after. */
  expires_at: number;
}

export interface AdminLoginCardsTable {
  // admin-login-card
  id: string;
  tenant_code: string;
  user_id: string;
  oprt_no: string;
  kind_num: number;
  /** Not unique: a card issued again after a recycle has a row per issue; one live row per number (0018). */
  fixed_no: string;
  card_num: number;
  state: number;
  issue_seq: number;
  /** argon2id of the SM3 digest of the card password. */
  pwd_hash: string;
  is_super_admin: number;
  /** lower(fixed_no) ' ' lower(oprt_no) ' ' card_num: what likeSearch looks in (kept by the repository). */
  search_text: string;
  created_at: number;
  updated_at: number;
}

export interface SubAppRegistrationsTable {
  // sub-app
  app_no: string;
  entry: string;
  /** JSON array of origins. */
  script_origins: string;
  /** JSON array of function codes. */
  function_codes: string;
  registered_at: number;
  registered_by: string;
}

export interface ChangeStampsTable {
  // db/change-stamps.ts: one row (id 1), one counter per kind, bumped by triggers (migration 0017)
  id: number;
  licences: number;
  grants: number;
  catalogue: number;
}

export interface DB {
  tenants: TenantsTable;
  users: UsersTable;
  sessions: SessionsTable;
  captchas: CaptchasTable;
  login_failures: LoginFailuresTable;
  operation_logs: OperationLogsTable;
  menu_systems: MenuSystemsTable;
  menu_pages: MenuPagesTable;
  sub_app_registrations: SubAppRegistrationsTable;
  permission_grants: PermissionGrantsTable;
  licences: LicencesTable;
  installation: InstallationTable;
  oss_objects: OssObjectsTable;
  server_keys: ServerKeysTable;
  backup_logs: BackupLogsTable;
  departments: DepartmentsTable;
  employees: EmployeesTable;
  program_versions: ProgramVersionsTable;
  gate_installation: GateInstallationTable;
  prepared_card_writes: PreparedCardWritesTable;
  master_card_tokens: MasterCardTokensTable;
  trusted_card_issuers: TrustedCardIssuersTable;
  issuer_key_challenges: IssuerKeyChallengesTable;
  system_key_cards: SystemKeyCardsTable;
  admin_login_cards: AdminLoginCardsTable;
  change_stamps: ChangeStampsTable;
  identity_providers: IdentityProvidersTable;
  sso_round_trips: SsoRoundTripsTable;
  sso_login_tickets: SsoLoginTicketsTable;
  sso_sessions: SsoSessionsTable;
  sso_logout_tokens: SsoLogoutTokensTable;
}
