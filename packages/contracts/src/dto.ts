import type { LanguageCode } from './languages.ts';

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
}

export interface UserSettings {
  language: LanguageCode;
  timeZone: { utcDiff: number };
}

export interface PasswordComplexity {
  /** Base64 of a JavaScript regular expression source. */
  regex: string;
  tip: string;
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
  meta: { appNo: string; parentId: string | null; isSide: boolean; icon?: string };
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
  sysKeyData: string | null;
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
