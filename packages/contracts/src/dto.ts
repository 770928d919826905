import type { IdentityProviderButton } from './identity-providers.ts';
import type { LanguageCode, Localised } from './languages.ts';
import { reportServiceNamePattern, reportVersionPattern } from '@campus/subapp-sdk/shared-libraries';

// ---- sign-in (spec §3, §7) ----

export interface WebLoginRequest {
  user: {
    account: string;
    /** Lowercase hex SHA-256 (SM3 in national-crypto mode) of the UTF-8 password. */
    password: string;
    tenantCode: string;
  };
  verifyModel?: {
    verifyKey?: string;
    imageVerifyCode?: string;
  };
}

export interface LoginInfo {
  token: string;
  tenantCode: string;
}

export interface WebLoginReply {
  loginInfo: LoginInfo;
}

/** Failure data of a login: how many tries are left, when a lock ends, whether a captcha is now needed. */
export interface LoginFailureData {
  captchaRequired?: boolean;
  /** Epoch ms when the lock ends (accountLocked). */
  lockingTime?: number;
  remainingAttempts?: number;
  /** Seconds this address must wait before its next try (signInThrottled, HTTP 429). */
  retryAfter?: number;
}

export interface AccountLoginRequest {
  account: string;
  password: string;
  tenantCode?: string;
}

export interface LdapLoginRequest {
  account: string;
  /** Base64 of the UTF-8 password (the directory needs the password itself). */
  password: string;
  tenantCode: string;
  verifyModel?: WebLoginRequest['verifyModel'];
}

export interface TenantEntry {
  code: string;
  name: string;
}

export interface CaptchaImage {
  verifyKey: string;
  /** `data:image/png;base64,…` */
  image: string;
  /** `data:audio/wav;base64,…`: the same code said aloud, when asked for with `audio=true`. */
  audio?: string;
  /** Seconds the code stays valid. */
  expiresIn: number;
}

/** Deployment settings the login page needs before anyone signs in (spec §3 "Tenant settings"). */
export interface TenantSettings {
  imgVerifyCode: boolean;
  openLdap: boolean;
  mjSystem: number;
  cardLogin: boolean;
  logoUrl: string;
  code: string;
  headerLogo: string;
  loginBg: string;
  loginLogo: string;
  isPrivateDeployment: boolean;
  systemName: string;
  systemLogo: string;
  /** Colour scheme of the main layout (spec §2 skins), chosen per tenant. */
  skin: SkinCode;
  /** Address of the operations management platform on private deployments; '' when none is configured. */
  opsPlatformUrl: string;
  /** The local card issuer's address (CARD_ISSUER_URL), for the card screens of gate deployments. */
  cardIssuerUrl: string;
  /** The tenant's enabled identity providers: one "Sign in with …" button each on the login page (issue 49). */
  identityProviders: IdentityProviderButton[];
}

export const skinCodes = ['DASUI001', 'DASUI003', 'DASUI004'] as const;
export type SkinCode = (typeof skinCodes)[number];
export const defaultSkin: SkinCode = 'DASUI001';

export function isSkinCode(value: unknown): value is SkinCode {
  return typeof value === 'string' && (skinCodes as readonly string[]).includes(value);
}

/** `GET /global/api/runtime/settings/login` (spec §3). */
export interface RuntimeLoginSettings {
  IsPrivateDeployment: boolean;
  OpenImageVerifyCode: boolean;
  CardLogin: boolean;
  MJSystem: number;
  OpenLdap: boolean;
  IsOEM: boolean;
}

export interface VersionCheck {
  mjSystem: number;
  version: string;
}

// ---- account ----

export interface UserInfo {
  id: string;
  code: string;
  isFirstLogin: boolean;
  name: string;
  /** Epoch ms of this sign-in. */
  loginTime: number;
  /** Why the password must change (spec §4 forced password change); null when it need not. */
  oprtPwdEditReason: number | null;
  /** Epoch ms the password expires or expired; null when none. */
  lockingTime: number | null;
  isSystemAdmin: boolean;
  tenantCode: string;
  tenantName: string;
  loginType: LoginType;
  /** The administrator login card of a card sign-in (ChangeGMPassword's id); null for other sign-ins. */
  cardId: string | null;
  /** Whether the card management tables are this user's (a system administrator of a gate deployment): the shell offers the way there. */
  mayManageCards: boolean;
}

export interface UserSettings {
  language: LanguageCode;
  timeZone: { utcDiff: number };
}

/**
 * `POST SetUserSetParam`: the language the user chose in the shell's picker, kept as the user's own setting so it
 * follows the user to the next sign-in and to other browsers (the spec leaves this call open).
 */
export interface SaveUserSettingsRequest {
  language: LanguageCode;
}

export interface PasswordComplexity {
  /** Base64 of a JavaScript regular expression source. */
  regex: string;
  tip: string;
  /**
   * SM2 public key (uncompressed, hex `04…`) the browser seals a new password to, so the server can
   * check the policy itself without the password crossing a plain-http intranet in clear.
   */
  sealKey: string;
}

/**
 * Change password (spec §7 "ChangePassword", §5). Sent as POST: digests in a query string would land in
 * access logs. Success revokes every session of the user (the shell then logs out).
 */
export interface ChangePasswordRequest {
  /** Digest of the current password (SHA-256, SM3 in national-crypto mode), lowercase hex. */
  oprtPwd: string;
  /** Digest of the new password, same algorithm. */
  oprtNewPwd: string;
  /** The new password itself, SM2-encrypted (C1C3C2, hex) to PasswordComplexity.sealKey. */
  sealedNewPwd: string;
}

// ---- menus and permissions ----

export interface MenuSystem {
  id: string;
  appNo: string;
  appId: string;
  frontRoutingAddr: string;
  label: string;
  sortNum: number;
}

export interface MenuPage {
  id: string;
  path: string;
  name: string;
  title: string;
  sortNum: number;
  isFuncRight: boolean;
  funcRightPerms: string[];
  meta: {
    appNo: string;
    parentId: string | null;
    isSide: boolean;
    icon?: string;
    /** Report pages: the backend page path shown in an embedded frame instead of a sub-application. */
    frameUrl?: string;
  };
}

export interface MenuData {
  menuBaseList: MenuSystem[];
  menuList: MenuPage[];
}

export interface PermissionEntry {
  appCode: string;
  ids: string[];
}

export interface LanguageEntry {
  code: LanguageCode;
  text: string;
}

export interface SystemLogoEntry {
  code: string;
  systemLogo: string;
  systemName: string;
}

export interface SysKeyParamData {
  mjSystem: number;
  isNationalCrypto: boolean;
  /** Always null here: the system key goes only to a trusted card issuer, sealed (GetSysKeyData). */
  sysKeyData: string | null;
  /** The installation's system key id (hex, as on its cards); '' before gate initialisation. */
  keyId: string;
  /** Card kind of the administrator login and system key cards (spec §9). */
  cardKind: number;
}

/** `GET /system/api/System/GetLicensePermission` (spec §3 "Licence permission"). */
export interface LicencePermission {
  isNormal: boolean;
  isSystemAdmin: boolean;
  isViewPermission: boolean;
  isAddTrialPermission: boolean;
  isAddOfficialPermission: boolean;
  licenseType: number;
  licenseState: number;
}

/** Login type codes (spec §9): 1 and 2 normal (password, LDAP), 3 card, 4 third-party. */
export const loginTypes = { password: 1, ldap: 2, card: 3, thirdParty: 4 } as const;
export type LoginType = (typeof loginTypes)[keyof typeof loginTypes];

// ---- backup logs (spec §3 "Backup log row", §7 SearchBackupLog) ----

/** `POST /common-service/api/BackUpLog/SearchBackupLog`: one page, optionally within a time range. */
export interface BackupLogSearchRequest {
  /** index is 1-based; size 1 to backupLogPaging.maxPageSize. */
  pageInfo: { index: number; size: number };
  /** Epoch ms, inclusive: rows backed up at or after this time. */
  startTime?: number;
  /** Epoch ms, inclusive: rows backed up at or before this time; not before startTime. */
  endTime?: number;
}

/** One backup of this installation (a database dump or a log archive). The envelope's recordCount is the total. */
export interface BackupLogRow {
  id: string;
  /** File name of the backup. */
  name: string;
  /** Epoch ms the backup was taken. */
  backupTime: number;
  /** Epoch ms the backup job wrote this log entry (when the backup finished): the detail's "log time". */
  logTime: number;
  /** Folder (or full path) the file was written to. */
  filePath: string;
  /** Host that holds the file. */
  addr: string;
  /** Days the file is kept. */
  retentionDay: number;
  /** File size in bytes. */
  size: number;
  remarks: string;
}

// ---- operation log (DESIGN §5; the reference sub-app's /qy/operate-log) ----

/** What the operation log records. */
export const operationActions = [
  'login', 'ldap-login', 'lock', 'logout', 'change-password', 'licence-upload', 'licence-activate', 'licence-trial',
  'card-login', 'system-init', 'master-card', 'card-issue', 'card-password', 'card-reader-trust', 'card-state',
  'card-rewrite', 'card-recycle', 'system-key-recovery', 'sub-app-register', 'sub-app-remove', 'sub-app-grant',
  'restore', 'password-reset', 'sub-app-revoke', 'installation-admin', 'card-login-setting', 'card-issuer-key',
  'card-issuer-revoke', 'sso-login', 'sso-logout', 'identity-provider',
] as const;
export type OperationAction = (typeof operationActions)[number];
/** `refused`: the credentials were right but the sign-in was refused (detail says why, e.g. no-subsystem). */
export const operationResults = ['success', 'failure', 'locked', 'disabled', 'no-local-account', 'refused'] as const;
export type OperationResult = (typeof operationResults)[number];

/** `POST /qy/api/OperateLog/Search`: one page, optionally filtered. */
export interface OperationLogSearchRequest {
  /** index is 1-based; size 1 to operationLogPaging.maxPageSize. */
  page: { index: number; size: number };
  /** Epoch ms, inclusive. */
  startTime?: number;
  /** Epoch ms, inclusive; not before startTime. */
  endTime?: number;
  /** Part of the operator's account name (case-insensitive), 1 to 64 characters. */
  operator?: string;
  action?: OperationAction;
}

/** One operation log row; the envelope's recordCount is the total matching the filters. */
export interface OperationLogRow {
  id: string;
  tenantCode: string;
  account: string;
  action: OperationAction;
  result: OperationResult;
  clientIp: string;
  detail: string | null;
  /** Epoch ms. */
  createdAt: number;
}

// ---- enterprise-data home page ----

/** `GET /qy/api/Home/GetFigures`: figures of the caller's tenant, read when asked (never cached). */
export interface HomeFigures {
  employeeCount: number;
  departmentCount: number;
  /** Sessions of the tenant that are signed in now (not expired, not logged out). */
  activeSessionCount: number;
  /** The installation's licence, as GetLicensePermission computes it. */
  licence: { isNormal: boolean; licenseType: number; licenseState: number };
}

// ---- sub-applications (DESIGN §8) ----

/** Where sub-app entries are served on this server: `/subapps/{folder}/` (never the route itself). */
export const subAppsPathPrefix = '/subapps/';

/** `GET /system/api/SubApp/GetRegistry`: one row per system of the catalogue. */
/**
 * Whether a developer may load one sub-app from his own dev server in his own browser (SUBAPP_DEV_OVERRIDES): the
 * origin patterns the server admits (`http://localhost:*`: any port), empty when the operator does not allow it.
 */
export interface SubAppDevOverridePolicy {
  origins: string[];
}

export interface SubAppEntry {
  appNo: string;
  /** The base path without slashes (frontRoutingAddr), '' for tc. */
  frontRoutingAddr: string;
  /** The entry folder: frontRoutingAddr, or the appNo when the base path is empty. Systems sharing it share one app. */
  folder: string;
  /** URL of the entry's index.html folder, ending in '/': `/subapps/{folder}/` unless the deployment points it elsewhere. */
  entry: string;
  /**
   * False when the entry is this server's `/subapps/{folder}/` and no build of the folder is there; true otherwise
   * (an entry on another server is taken as installed: only loading it can tell).
   */
  installed: boolean;
}

/** A menu page of a registered sub-system (the fields of a menu page the operator gives). */
export interface SubAppManifestPage {
  /** Unique among all pages: lowercase letters, digits and '-'. */
  id: string;
  /** Parent group: the id of an earlier page of this manifest that has no path; at most three levels. */
  parentId?: string;
  /** '' for a group; else a path under the sub-system's base path (`/ext/orders`). */
  path: string;
  /** The route name (letters and digits). */
  name: string;
  title: Localised;
  /** Function codes of this sub-system: the page shows only to holders of one of them. */
  funcRightPerms?: string[];
}

/** `POST /system/api/SubApp/Register`: what an operator says of a sub-system from another team. */
export interface SubAppManifest {
  /** The system code (appNo): 2 to 16 lowercase letters and digits, starting with a letter. */
  appNo: string;
  label: Localised;
  /** The base path without slashes (`ext`, `partner/visits`): pages live under /{basePath}/. */
  basePath: string;
  /**
   * The folder of the entry's index.html, ending in '/': an http(s) URL on another server, or a path on this one.
   * Default `/subapps/{basePath}/` (a build copied into SUBAPPS_DIR).
   */
  entry?: string;
  /** Further origins its scripts, styles, images and calls come from (`https://cdn.example.com`); its entry's origin is allowed anyway. */
  scriptOrigins?: string[];
  /** The function codes of the sub-system (digits); a holder gets all of them unless a grant names some. */
  functionCodes?: string[];
  pages: SubAppManifestPage[];
  /** Replace the registration of the same appNo (a new version); without it an existing code is refused. */
  replace?: boolean;
}

/** A registered sub-system as SubApp/List and Register answer it. */
export interface SubAppRegistration {
  appNo: string;
  label: Localised;
  basePath: string;
  entry: string;
  scriptOrigins: string[];
  functionCodes: string[];
  pageCount: number;
  /** Epoch ms. */
  registeredAt: number;
  registeredBy: string;
}

/** `GET /system/api/SubApp/List`. */
export interface SubAppOverview {
  registered: SubAppRegistration[];
  /** SUBAPP_ENTRIES items whose folder no system of the catalogue uses: they are not loaded. */
  unknownEntries: { folder: string; entry: string }[];
}

/** `POST /system/api/SubApp/Grant`. */
export interface SubAppGrantRequest {
  appNo: string;
  tenantCode: string;
  account: string;
  /** Default: every function code of the sub-system. */
  functionCodes?: string[];
}

/** Takes a registered sub-system from one account (SubApp/Revoke). */
export interface SubAppRevoke {
  appNo: string;
  tenantCode: string;
  account: string;
}

/** The limits of a SubAppManifest, shared by the call, the CLI and their tests. */
export const subAppManifestRules = {
  appNoPattern: '^[a-z][a-z0-9]{1,15}$',
  pageIdPattern: '^[a-z0-9][a-z0-9-]{0,63}$',
  pageNamePattern: '^[A-Za-z][A-Za-z0-9]{0,63}$',
  functionCodePattern: '^[0-9]{1,16}$',
  labelMaxLength: 40,
  pathMaxLength: 200,
  maxPages: 200,
  maxScriptOrigins: 10,
  maxFunctionCodes: 100,
  /** Menus have at most this many levels (spec §2 side menu). */
  maxDepth: 3,
} as const;

// the report-version file is part of what a sub-app's build and the shell agree on: the SDK owns it
export { reportVersionFileName, type ReportVersionFile } from '@campus/subapp-sdk/shared-libraries';

/** A program version (spec §3 "Version entry"). address: host, or host:port when the host is an address. */
export interface VersionEntry {
  address: string;
  serviceName: string;
  version: string;
}

/** `POST /common-service/api/Version/ReportVersion`: 1 to 50 entries; each replaces the one of the same address and serviceName. */
export interface ReportVersionRequest {
  versions: VersionEntry[];
}

// ---- rules of the calls above, shared so the browser checks what the server checks ----

/** An entry folder (SubAppEntry.folder): lowercase words joined by single slashes, e.g. `qy`, `monitor/mj`. */
export const subAppFolderPattern = '^[a-z0-9-]+(/[a-z0-9-]+)*$';

/** What ReportVersion accepts (VersionEntry fields and how many per call). */
export const reportVersionRules = {
  maxEntries: 50,
  /** VersionList pages: default and largest size. */
  defaultPageSize: 100,
  maxPageSize: 500,
  /** 1 to 255 characters, no whitespace or control characters. */
  addressPattern: '^[^\\s\\u0000-\\u001f\\u007f-\\u009f]{1,255}$',
  serviceNamePattern: reportServiceNamePattern,
  versionPattern: reportVersionPattern,
} as const;

/** OperationLogSearchRequest.operator: 1 to this many characters. */
export const operationLogOperatorMaxLength = 64;
