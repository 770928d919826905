/**
 * Every HTTP path the shell calls on the server (spec §7). One place, so the server registers
 * exactly what the shell requests.
 */
export const apiPaths = {
  // sign-in
  webLogin: '/user/api/v1.0/account/weblogin',
  accountTenants: '/user/api/v1.0/account/tenants',
  tenantSearch: '/iot-login/api/v1.0/Tenant/Search',
  /** The spec prints this call's path garbled ("/iot-login/api/v1.{token}"): login by account + digest. */
  accountLogin: '/iot-login/api/v1.0/Account/Login',
  ldapLogin: '/iot-login/api/v1.0/SSO/LDAPAdminLogin',
  runtimeLoginSettings: '/global/api/runtime/settings/login',
  loginLogo: '/iot_login/api/v1.0/loginconfig/getlogo',
  captchaImage: '/auth/api/verifyCode/getimage',
  /** Tenant (deployment) settings for the login page; the spec leaves this path open. */
  tenantSettings: '/iot-login/api/v1.0/Tenant/GetSettings',
  /** Version / device check that answers mjSystem; the spec leaves this path open. */
  versionCheck: '/iot-login/api/v1.0/Device/CheckVersion',
  logout: '/system/api/System/LoginOut',
  // account
  changePassword: '/system/api/Account/ChangePassword',
  passwordComplexity: '/system/api/System/GetLoginPassordComplexity',
  userDetail: '/qy/api/User/GetDetailByToken',
  userSettings: '/qy/api/System/GetUserSetParam',
  // menus and reference data
  systemLogos: '/system/api/System/GetSystemLogoList',
  languages: '/system/api/System/GetLanguageList',
  menus: '/system/api/System/GetMenu',
  permissions: '/system/api/System/GetPermission',
  sysKeyParam: '/system/api/System/GetSysKeyParamData',
  licencePermission: '/system/api/System/GetLicensePermission',
  /** POST {page:{index,size}} → operation log rows of the caller's tenant (system administrators); path left open by the spec. */
  operationLogSearch: '/qy/api/OperateLog/Search',
  // licence, version and backup
  /** POST {pageInfo:{index,size}, startTime?, endTime?} → backup log rows, newest first (private deployments). */
  backupLogSearch: '/common-service/api/BackUpLog/SearchBackupLog',
  // files and health
  ossObject: '/oss/file/getObject/:id',
  /** GET → the downloadable tools list (static JSON, no envelope). */
  toolsList: '/tools/tools.json',
  /** GET → one tool file as an attachment. */
  toolsFile: '/tools/:fileName',
  health: '/healthz',
} as const;

export type ApiPath = (typeof apiPaths)[keyof typeof apiPaths];

/** Builds the public URL of a stored image (logos, login backgrounds). */
export function ossObjectUrl(id: string): string {
  return `/oss/file/getObject/${encodeURIComponent(id)}`;
}

/** The public URL of a downloadable tool. */
export function toolFileUrl(fileName: string): string {
  return `/tools/${encodeURIComponent(fileName)}`;
}
