/**
 * Licences (spec §3 "Licence", §4 licence codes, §7 "Licence, version and backup", DESIGN §5): the signed
 * file format, what the calls send and answer, and the constants of §9. Server, shell and the vendor CLI
 * all read these.
 */

/** Licence state and effectiveness codes (spec §4 code table). */
export const licenceStates = {
  notActivated: 0,
  notStarted: 1,
  expired: 2,
  aboutToExpire: 3,
  inEffect: 4,
  normal: 5,
  replaced: 6,
} as const;

/** Whether a licence's effectiveness lets it be activated (begun and not expired); the server refuses the rest. */
export function isWithinValidity(effectivenessCode: number): boolean {
  return effectivenessCode !== licenceStates.notStarted && effectivenessCode !== licenceStates.expired;
}

/** licenseType of GetLicensePermission (spec §4 "Licence prompt"): 1 tampered, 2 formal, 3 trial, 4 none yet. */
export const licenceTypes = { tampered: 1, formal: 2, trial: 3, none: 4 } as const;

/** Spec §9: the end year meaning "permanent", unlimited counts, the trial length, the licence table's paging. */
export const licenceLimits = {
  permanentYear: 2099,
  unlimitedEmployees: 9999999,
  unlimitedDevices: -1,
  trialDays: 30,
  /** A licence file larger than this is refused before it is parsed. */
  maxFileBytes: 256 * 1024,
  /** Files in one upload. */
  maxFilesPerUpload: 20,
} as const;

/**
 * Licence dates are days of the vendor's calendar, UTC+8 (minutes east of UTC): a licence begins at 00:00 of its first
 * day and ends at 23:59:59.999 of its last there (the licence CLI issues them so). They are shown as those days to
 * every viewer, never shifted into the viewer's zone.
 */
export const licenceCalendarUtcDiff = 480;

/** A customer number (spec §5, §9): 1 to 8 digits without a leading zero. */
export const customerNoPattern = /^[1-9][0-9]{0,7}$/;

export const licencePaging = { pageSize: 15, pageSizeOptions: [15, 30, 50, 100, 500], maxPageSize: 500 } as const;
/** Licence dialog widths (spec §9): upload 650, activation 1000, trial registration 1015. */
export const licenceModalWidths = { upload: 650, activation: 1000, trial: 1015 } as const;

/** Signature algorithms of a licence file: Ed25519 by default, SM2 (with SM3) in national-crypto mode. */
export const licenceAlgorithms = ['Ed25519', 'SM2'] as const;
export type LicenceAlgorithm = (typeof licenceAlgorithms)[number];

/** One application's edition in a licence (spec §3 "infos rows"). Times are epoch ms; null follows the licence. */
export interface LicenceAppEdition {
  appId: string;
  appName: string;
  editionName: string;
  beginTime: number | null;
  endTime: number | null;
  isHasWeb: boolean;
  isHasMobile: boolean;
}

/** A device limit (spec §3 "devices rows"); count -1 is unlimited. */
export interface LicenceDeviceLimit {
  deviceName: string;
  count: number;
  beginTime: number | null;
  endTime: number | null;
  remarks: string;
}

/** What the vendor signs. Times are epoch ms (UTC); a null begin or end "follows the system permission". */
export interface LicencePayload {
  /** Format version of this payload. */
  format: 1;
  /** The licence code, unique per licence. */
  code: string;
  /** The installation it is for (its customer number); a licence for another one is refused. */
  customerNo: string;
  customerName: string;
  /** Product package. */
  prdPkgCategory: string;
  isFormal: boolean;
  beginTime: number | null;
  endTime: number | null;
  /** 9999999 is unlimited. */
  empCount: number;
  isHasMobile: boolean;
  isPermitOpenapi: boolean;
  isLimitDevice: boolean;
  infos: LicenceAppEdition[];
  devices: LicenceDeviceLimit[];
  /** When the vendor issued it. */
  issuedAt: number;
}

/**
 * A `.lic` file: UTF-8 JSON of this shape. `payload` is the base64 of the payload's JSON bytes; the
 * signature covers exactly those bytes (Ed25519: raw 64-byte signature; SM2: DER-free r||s hex of SM3 with
 * the default user id), base64. `kid` names the vendor key in the server's trust list, so keys can rotate.
 */
export interface LicenceFile {
  alg: LicenceAlgorithm;
  kid: string;
  payload: string;
  signature: string;
}

/** A stored licence as lists show it (spec §3 "Licence"). */
export interface LicenceRow {
  id: string;
  code: string;
  beginTime: number | null;
  endTime: number | null;
  activateTime: number | null;
  /** Epoch ms after which the installation stops working; shown minus 30 days (spec §3 display rules). */
  loseActivateTime: number | null;
  state: number;
  effectiveness: number;
  isFormal: boolean;
  prdPkgCategory: string;
  empCount: number;
  isLimitDevice: boolean;
  customerName: string;
  /** Uploaded at (epoch ms). */
  createTime: number;
}

/** One licence in full: GetDetail, GetOldDetail, GetLicenseDetail (spec §3 "Detail also has"). */
export interface LicenceDetail extends LicenceRow {
  isHasMobile: boolean;
  isPermitOpenapi: boolean;
  /** Whole days from begin to end; null when either follows the system permission. */
  term: number | null;
  infos: LicenceAppEdition[];
  devices: LicenceDeviceLimit[];
}

/** UploadLicenseFile answers one of these per file, in the order sent; `ok` false names why in `msg`. */
export interface LicenceUploadResult {
  fileName: string;
  ok: boolean;
  /** The stored licence's id when ok (the same id again when that licence was already uploaded). */
  id: string | null;
  code: string | null;
  msg: string;
}

/** `POST /common-service/api/License/Search`: one page of licences, newest first. */
export interface LicenceSearchRequest {
  page: { index: number; size: number };
}
export interface LicenceSearchReply {
  licenses: LicenceRow[];
  count: number;
}

/** `POST /common-service/api/License/GetDetail`: by id or by code (one of them). */
export interface LicenceDetailRequest {
  id?: string;
  code?: string;
}

/** `POST /common-service/api/License/ActivateLicense`. */
export interface ActivateLicenceRequest {
  id: string;
}

/** `POST /common-service/api/License/AppList`: applications a trial may cover. */
export interface LicenceApp {
  appId: string;
  appName: string;
}

/**
 * `POST /system/api/System/AddTempLicense` (the spec prints GET; a password digest does not belong in a URL,
 * where access logs keep it): the applications and the administrator's password digest (sha256, SM3 on gate
 * deployments).
 */
export interface AddTrialLicenceRequest {
  appIds: string[];
  oprtPwd: string;
}

/** `GET /common-service/api/License/GetSysInfos` and the product info call (spec §3 "Product info"). */
export interface ProductInfo {
  productName: string;
  productCode: string;
  productVer: string;
  copyRightYear: string;
  copyRightOwner: string;
  /** URL of the product logo ('' when none). */
  productLogo: string;
}

/** `GET /common-service/api/License/GetProductImages`: images of the product (URLs, '' when none). */
export interface ProductImages {
  productLogo: string;
  loginBg: string;
}

/** The customer number call (spec §3 "Customer"): this installation's customer number and system code. */
export interface CustomerInfo {
  customerNo: string;
  /** The system code shown beside the customer ID in About System. */
  systemCode: string;
}
