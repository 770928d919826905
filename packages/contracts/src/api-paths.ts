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
  // external sign-in through a tenant's identity provider (issue 49, docs/sso.md); the spec shows none of these
  /** GET ?providerId&tenantCode&fromPath&lang: a browser navigation, answered 302 to the provider (OIDC or CAS). */
  ssoStart: '/iot-login/api/v1.0/SSO/Start',
  /** GET ?code&state (or ?error&state): the OIDC provider's redirect back; answered 302 to /not-login. */
  ssoOidcCallback: '/iot-login/api/v1.0/SSO/OidcCallback',
  /** GET ?state&ticket: the CAS server's redirect back (302 to /not-login); POST logoutRequest: CAS single logout. */
  ssoCasCallback: '/iot-login/api/v1.0/SSO/CasCallback',
  /** POST {ticket, tenantCode} → LoginInfo: the landing trades the one-time login ticket for the session, once. */
  ssoExchangeTicket: '/iot-login/api/v1.0/SSO/ExchangeTicket',
  /** POST ?providerId, form logout_token: OpenID Connect back-channel logout. */
  ssoBackchannelLogout: '/iot-login/api/v1.0/SSO/BackchannelLogout',
  // a tenant's identity providers, kept by its system administrator
  identityProviderList: '/system/api/IdentityProvider/List',
  identityProviderSave: '/system/api/IdentityProvider/Save',
  identityProviderDelete: '/system/api/IdentityProvider/Delete',
  /** POST: tries a provider's settings (discovery, keys, clock; CAS validation endpoint) before it is switched on. */
  identityProviderTest: '/system/api/IdentityProvider/Test',
  // account
  changePassword: '/system/api/Account/ChangePassword',
  passwordComplexity: '/system/api/System/GetLoginPassordComplexity',
  userDetail: '/qy/api/User/GetDetailByToken',
  userSettings: '/qy/api/System/GetUserSetParam',
  /** POST SaveUserSettingsRequest → null: stores the language the user chose (path left open by the spec). */
  saveUserSettings: '/qy/api/System/SetUserSetParam',
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
  /** GET → SubAppDevOverridePolicy: the dev-server origins a developer's browser may load a sub-app from (none by default). */
  subAppDevOverrides: '/system/api/SubApp/GetDevOverrides',
  /**
   * Installation administrators: a sub-system of another team (not one of the built-in systems), without a restart.
   * POST SubAppManifest → SubAppRegistration; `replace: true` replaces an earlier registration of the same code.
   */
  subAppRegister: '/system/api/SubApp/Register',
  /** POST {appNo} → null: removes a registered sub-system, its menus and its grants (never a built-in system). */
  subAppRemove: '/system/api/SubApp/Remove',
  /** POST SubAppGrantRequest → null: gives one account a registered sub-system (with its function codes). */
  subAppGrant: '/system/api/SubApp/Grant',
  /** POST SubAppRevoke → null: takes a registered sub-system from one account (its grant, every function code). */
  subAppRevoke: '/system/api/SubApp/Revoke',
  /** GET → SubAppOverview: the registered sub-systems and the SUBAPP_ENTRIES items that name no system. */
  subAppList: '/system/api/SubApp/List',
  // licence, version and backup (types in licence.ts)
  /** POST multipart field 'files' (.lic only, several) → LicenceUploadResult[], one per file (installation administrators). */
  licenceUpload: '/common-service/api/License/UploadLicenseFile',
  /** POST LicenceDetailRequest → LicenceDetail. */
  licenceDetail: '/common-service/api/License/GetDetail',
  /** POST → LicenceDetail | null: the licence in effect now, which activating another one replaces. */
  licenceOldDetail: '/common-service/api/License/GetOldDetail',
  /** POST ActivateLicenceRequest → null (installation administrators). */
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
  /** POST AddTrialLicenceRequest → null (installation administrators; one trial per installation). */
  addTrialLicence: '/system/api/System/AddTempLicense',
  /** GET → ProductInfo (path left open by the spec). */
  productInfo: '/common-service/api/Product/GetProductInfo',
  /** GET → CustomerInfo (path left open by the spec). */
  customerInfo: '/common-service/api/Customer/GetCustomerNo',
  /** POST ReportVersionRequest: the shell registers its own version and each sub-app's report-version file. */
  reportVersion: '/common-service/api/Version/ReportVersion',
  /** GET → VersionEntry[]: every program version reported to this installation (About System, Version Info). */
  versionList: '/common-service/api/Version/VersionList',
  /** GET → string[]: the folders under this server's /subapps/ that hold a report-version file (the shell asks only those). */
  reportFolders: '/common-service/api/Version/ReportFolders',
  /** POST {pageInfo:{index,size}, startTime?, endTime?} → backup log rows, newest first (private deployments). */
  backupLogSearch: '/common-service/api/BackUpLog/SearchBackupLog',
  // gate set-up and card sign-in (spec §7 card section; docs/cards.md "The server's card calls"); all POST
  /** → GateSetupState: what the set-up has done (public: the entry checks of the card screens). */
  gmIsSystemInit: '/iot-login/api/v1.0/GMAccount/IsSystemInit',
  /** → {isIssue}: the system key card is issued. */
  gmIsIssueSecretCard: '/iot-login/api/v1.0/GMAccount/IsIssueSecretCard',
  /** → {isIssue}: the super administrator's login card is issued. */
  gmIsIssueSuperAdminCard: '/iot-login/api/v1.0/GMAccount/IsIssueSuperAdminCard',
  /** → CardSector: the card layout the server builds (version, size, kind). */
  gmGetCardSector: '/iot-login/api/v1.0/GMAccount/GetCardSector',
  /** SystemInitRequest → PreparedCardWrite: phase one of system initialisation (public until initialised). */
  addGmInitData: '/qy/api/System/AddGMInitData',
  /** CardWriteConfirm → GateSetupState: phase two of system initialisation (not in the spec; named like its siblings). */
  gmSetSystemInit: '/iot-login/api/v1.0/GMAccount/SetSystemInit',
  /** MasterCardVerifyRequest → MasterCardToken. */
  gmMasterCardVerify: '/iot-login/api/v1.0/GMAccount/MasterCardVerify',
  /** {fixedNo} → {canIssue}: the card is new to the server (master-card token). */
  systemKeyCardCheckCanIssue: '/qy/api/SystemKeyCard/CheckCardCanIssue',
  /** {fixedNo} → PreparedCardWrite: phase one of issuing the system key card (master-card token). */
  systemKeyCardAdd: '/qy/api/SystemKeyCard/Add',
  /** CardWriteConfirm → null: phase two of issuing the system key card (master-card token). */
  gmSetIssueSecretCard: '/iot-login/api/v1.0/GMAccount/SetIssueSecretCard',
  /** → SuperAdmin: the account the super administrator card signs in (master-card token). */
  getSuperAdmin: '/qy/api/System/GetSuperAdmin',
  /** → SuperAdminIssueData: the super administrator and his cards (master-card token). */
  getSuperAdminIssueData: '/qy/api/OprtLoginCard/GetSuperAdminIssueData',
  /** SuperAdminIssueRequest → PreparedCardWrite: phase one of issuing the super administrator card (master-card token). */
  issueSuperAdmin: '/qy/api/OprtLoginCard/IssueSuperAdmin',
  /** CardWriteConfirm → null: phase two of issuing the super administrator card (master-card token). */
  gmSetIssueSuperAdminCard: '/iot-login/api/v1.0/GMAccount/SetIssueSuperAdminCard',
  /** {oprtId} → {canIssue}: whether an operator may get a login card now (master-card token or session). */
  operatorIsCanIssueCard: '/qy/api/Operator/IsCanIssueCard',
  /** {devicePublicKey} → SysKeyChallenge: a one-time challenge the card issuer signs for GetSysKeyData / GetGMSysKeyData. */
  getSysKeyChallenge: '/qy/api/SystemUsedCardKind/GetSysKeyChallenge',
  /** → TrustedIssuerRow[]: the registry of trusted card issuers (system administrator or master-card token). */
  trustedIssuerList: '/qy/api/SystemUsedCardKind/TrustedIssuerList',
  /** {deviceId} → null: revokes a trusted card issuer for good (system administrator or master-card token). */
  trustedIssuerRevoke: '/qy/api/SystemUsedCardKind/RevokeTrustedIssuer',
  /** SysKeyDataRequest → {sysKeyData}: the system key sealed to a trusted card issuer (a master-card token trusts it). */
  getSysKeyData: '/qy/api/SystemUsedCardKind/GetSysKeyData',
  /** GmSysKeyDataRequest → {sysKeyData}: the system key card on the reader trusts the issuer, then as GetSysKeyData. */
  getGmSysKeyData: '/qy/api/SystemUsedCardKind/GetGMSysKeyData',
  /** → CardLoginSetting (public on gate deployments). */
  cardLoginSetting: '/qy/api/System/GetCardLoginSetting',
  /** SetCardLoginSettingRequest → null: the tenant's system administrators (issue 46). */
  setCardLoginSetting: '/qy/api/System/SetCardLoginSetting',
  /** {oprtPwd} → null: the card password of a card-login administrator (step 2 of spec §4 card password change). */
  verifyGmPassword: '/system/api/Account/VerifyGMPassword',
  /** ChangeGmPasswordPrepare → PreparedCardWrite, then CardWriteConfirm → null (spec §4 card password change). */
  changeGmPassword: '/system/api/Account/ChangeGMPassword',
  // card management (spec §7 /qy/api/SystemAdminLoginCard/ and /qy/api/SystemKeyCard/): access token of a
  // system administrator, or the master-card token
  /** {ids} → null: loss of administrator login cards (every one in use), their holders' sessions end. */
  adminCardLoss: '/qy/api/SystemAdminLoginCard/Loss',
  /** {ids} → null: found again (every one lost). */
  adminCardUnLoss: '/qy/api/SystemAdminLoginCard/UnLoss',
  /** {ids} → null: frozen (every one in use), their holders' sessions end. */
  adminCardFreeze: '/qy/api/SystemAdminLoginCard/Freeze',
  /** {ids} → null: unfrozen (every one frozen). */
  adminCardUnFreeze: '/qy/api/SystemAdminLoginCard/UnFreeze',
  /** {ids: [one]} → null: damaged and recovered (not 10, 30 or 60), its holder's sessions end. */
  adminCardDamage: '/qy/api/SystemAdminLoginCard/Damage',
  /** → {id, no, name}[]: the tenant's system administrators (the operator filter). */
  adminCardGetSystemAdmin: '/qy/api/SystemAdminLoginCard/GetSystemAdmin',
  /** → CardOption[]: the card states, labelled in the caller's language. */
  adminCardStateList: '/qy/api/SystemAdminLoginCard/SelectCardStateList',
  /** → CardOption[]: the card kinds. */
  adminCardKindList: '/qy/api/SystemAdminLoginCard/SelectCardKindList',
  /** CardSearchRequest → AdminLoginCardRow[] with recordCount (the tenant's cards). */
  adminCardSearch: '/qy/api/SystemAdminLoginCard/Search',
  /** {fixedNo} → AdminLoginCardRow | null: the card on the reader. */
  adminCardSeek: '/qy/api/SystemAdminLoginCard/Seek',
  /** AdminCardIssueRequest → PreparedCardWrite: phase one of issuing an administrator login card onto a blank card. */
  adminCardGetIssueData: '/qy/api/SystemAdminLoginCard/GetCardIssueData',
  /** CardWriteConfirm → null: phase two of an issue or a rewrite of an administrator login card. */
  adminCardIssue: '/qy/api/SystemAdminLoginCard/Issue',
  /** {id, fixedNo} → PreparedCardWrite: the card in use written again under a new issue number (its copies stop working); confirmed by Issue. */
  adminCardRewrite: '/qy/api/SystemAdminLoginCard/ReWrite',
  /** {id} → CardRecycleData: phase one of recycling (blanking) an administrator login card. */
  adminCardGetRecycleData: '/qy/api/SystemAdminLoginCard/GetCardRecycleData',
  /** CardRecycleConfirm → null: phase two; the card is recycled (30) and its holder's card sessions end. */
  adminCardRecycle: '/qy/api/SystemAdminLoginCard/Recycle',
  keyCardStateList: '/qy/api/SystemKeyCard/SelectCardStateList',
  keyCardKindList: '/qy/api/SystemKeyCard/SelectCardKindList',
  /** CardSearchRequest → SystemKeyCardRow[] with recordCount. */
  keyCardSearch: '/qy/api/SystemKeyCard/Search',
  /** {fixedNo} → SystemKeyCardRow | null. */
  keyCardSeek: '/qy/api/SystemKeyCard/Seek',
  /** {id} → null: the same four actions and damage for a system key card. */
  keyCardLoss: '/qy/api/SystemKeyCard/Loss',
  keyCardUnLoss: '/qy/api/SystemKeyCard/UnLoss',
  keyCardFreeze: '/qy/api/SystemKeyCard/Freeze',
  keyCardUnFreeze: '/qy/api/SystemKeyCard/UnFreeze',
  keyCardDamage: '/qy/api/SystemKeyCard/Damage',
  /** {id} → CardRecycleData: phase one of recycling (blanking) a system key card. */
  keyCardGetRecycleData: '/qy/api/SystemKeyCard/GetCardRecycleData',
  /** CardRecycleConfirm → null: phase two; the key card is recycled (30). */
  keyCardRecycle: '/qy/api/SystemKeyCard/Recycle',
  /** {fixedNo} → CardRecoveryCheck: whether this key card can recover the system key (phase one of recovery). */
  keyCardCheckCanRecovery: '/qy/api/SystemKeyCard/CheckCardCanRecovery',
  /** SystemKeyRecoveryConfirm → GateSetupState: the server's system key restored from the key card and the customer password. */
  keyCardRecoverySystemKey: '/qy/api/SystemKeyCard/RecoverySystemKey',
  // files and health
  ossObject: '/oss/file/getObject/:id',
  /** GET → the downloadable tools list (static JSON, no envelope). */
  toolsList: '/tools/tools.json',
  /** GET → one tool file as an attachment. */
  toolsFile: '/tools/:fileName',
  health: '/healthz',
  /** 200 while the process answers (a restart probe). */
  liveness: '/livez',
  /** 200 when the database answers, migrations are done and the data folder takes writes; 503 naming what is not (a balancer probe). */
  readiness: '/readyz',
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
