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
  /**
   * POST {cardKind, fixedNo, image, oprtNo, oprtPwd?}: card sign-in (login type 3), called by the local card issuer
   * with the administrator card it read (docs/cards.md); the server verifies the card itself (issue 13).
   */
  cardLogin: '/iot-login/api/v1.0/Account/CardLogin',
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
  /**
   * POST OperationLogSearchRequest → operation log rows of the caller's tenant, newest first (system administrators
   * and holders of function code 1001030); path left open by the spec.
   */
  operationLogSearch: '/qy/api/OperateLog/Search',
  /** GET → HomeFigures: live figures for the enterprise-data home page (path left open by the spec). */
  qyHomeFigures: '/qy/api/Home/GetFigures',
  /** GET → SubAppEntry[]: where each system's sub-application is loaded from on this deployment (DESIGN §8). */
  subAppRegistry: '/system/api/SubApp/GetRegistry',
  // licence, version and backup (types in licence.ts)
  /** POST multipart field 'files' (.lic only, several) → LicenceUploadResult[], one per file. */
  licenceUpload: '/common-service/api/License/UploadLicenseFile',
  /** POST LicenceDetailRequest → LicenceDetail. */
  licenceDetail: '/common-service/api/License/GetDetail',
  /** POST → LicenceDetail | null: the licence in effect now, which activating another one replaces. */
  licenceOldDetail: '/common-service/api/License/GetOldDetail',
  /** POST ActivateLicenceRequest → null (system administrators). */
  licenceActivate: '/common-service/api/License/ActivateLicense',
  /** POST → LicenceApp[]. */
  licenceAppList: '/common-service/api/License/AppList',
  /** POST LicenceSearchRequest → LicenceSearchReply. */
  licenceSearch: '/common-service/api/License/Search',
  /** POST → LicenceDetail | null: the licence the installation runs on. */
  licenceCurrentDetail: '/common-service/api/License/GetLicenseDetail',
  /** GET → ProductInfo (productName sets the page title); no sign-in needed. */
  licenceSysInfos: '/common-service/api/License/GetSysInfos',
  /** GET → ProductImages; no sign-in needed. */
  licenceProductImages: '/common-service/api/License/GetProductImages',
  /** POST AddTrialLicenceRequest → null (system administrators; one trial per installation). */
  addTrialLicence: '/system/api/System/AddTempLicense',
  /** GET → ProductInfo (path left open by the spec). */
  productInfo: '/common-service/api/Product/GetProductInfo',
  /** GET → CustomerInfo (path left open by the spec). */
  customerInfo: '/common-service/api/Customer/GetCustomerNo',
  /** POST ReportVersionRequest: the shell registers its own version and each sub-app's report-version file. */
  reportVersion: '/common-service/api/Version/ReportVersion',
  /** GET → VersionEntry[]: every program version reported to this installation (About System, Version Info). */
  versionList: '/common-service/api/Version/VersionList',
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
