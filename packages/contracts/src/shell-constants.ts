/** Numbers fixed by the specification (§9) that both server and shell use. */
export const shellVersion = '3.6.0.26112601';
/** The shell's service name in ReportVersion / VersionList (spec §7). */
export const shellServiceName = 'main-front';
export const defaultServicePort = 6300;
export const requestTimeoutMs = 30_000;
export const defaultHomePath = '/qy/homePage';
/** Lock-out (DESIGN §5). */
/** Failed sign-ins (docs/sign-in.md "Failed sign-ins and lock-outs"; apps/server/src/modules/sessions/lockout-service.ts). */
export const lockout = {
  /** Per account and address: an image code from this failure on. */
  captchaAfterFailures: 3,
  /** Per account and address: the account is locked for that address at this failure. */
  lockAfterFailures: 5,
  /** Successive lock lengths in minutes; the last repeats. */
  lockMinutes: [1, 5, 15],
  /** Per account, from any address: an image code everywhere from this failure on. */
  accountCaptchaAfterFailures: 5,
  /** Per account: locked for every address at this many failures … */
  accountLockFailures: 20,
  /** … coming from at least this many addresses … */
  accountLockAddresses: 3,
  /** … for this long. */
  accountLockMinutes: 15,
  /** Distinct failing addresses remembered per account. */
  accountAddressesKept: 16,
  /** Per address (any account): failures counted over about this window. */
  addressWindowMinutes: 15,
  /** Per address: the longest wait between tries once throttled. */
  addressMaxWaitSeconds: 60,
} as const;
export const captchaTtlSeconds = 120;
/** Page tabs kept open at most (spec §9). */
export const maxPageTabs = 10;
/** Side navigation width in px (spec §9). */
export const sideNavWidth = 214;
/** The local card-issuer / device service (spec §7): its default port when none is configured. */
export const localDeviceServicePort = 18085;
/** Function code that shows the Device Service entry of the user menu (spec §6). */
export const deviceServicePermission = '1003163';
/** Function codes that, with the xt system, enable the go-home shortcut to /qy/homePage (spec §6). */
export const goHomePermissions: readonly string[] = ['1002000', '1002003', '1002004', '1002040'];
/** Password length limits (spec §5, §9). */
export const passwordLength = { min: 8, max: 20 } as const;
/** Backup log viewer (spec §9): page size 10 with these options, table height 300; the server's largest page. */
export const backupLogPaging = {
  pageSize: 10,
  pageSizeOptions: [10, 20, 50, 100, 500],
  tableHeight: 300,
  maxPageSize: 500,
} as const;
/** Operation log viewer of the reference sub-app: default page size, its options, the server's largest page. */
export const operationLogPaging = {
  pageSize: 20,
  pageSizeOptions: [10, 20, 50, 100],
  maxPageSize: 500,
} as const;
/** Function code of the operation log page (qy): its holders may read the operation log. */
export const operationLogPermission = '1001030';
/** Card reader timings of spec §4 and §9 (milliseconds). */
export const cardTimings = {
  /** Poll and retry while no card is on the reader, and after a failed read. */
  retryMs: 3000,
  /** Issue and recycle dialogs close this long after success. */
  issueDialogCloseMs: 2000,
  /** The card password change closes this long after 'password changed'. */
  passwordChangedCloseMs: 1000,
  /** The initialisation button shows loading this long. */
  initButtonLoadingMs: 3000,
  /** Retries of a card operation before the dialog gives up and offers Try again. */
  maxRetries: 40,
} as const;
