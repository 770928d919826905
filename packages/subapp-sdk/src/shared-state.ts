/**
 * The shared state the shell hands every sub-application (spec §3 "Shared state for sub-apps", DESIGN §8).
 * This file is the contract between the shell (the host) and the sub-apps: change it only compatibly.
 */

/** Interface languages (spec §1). */
export type ShellLanguage = 'en-US' | 'zh-CN' | 'zh-MO';

/** The signed-in user (spec §3 "User info"). */
export interface ShellUserInfo {
  id: string;
  code: string;
  name: string;
  /** Epoch ms of this sign-in. */
  loginTime: number;
  isSystemAdmin: boolean;
  tenantCode: string;
  tenantName: string;
}

/** Deployment and tenant settings a sub-app may need. */
export interface ShellGlobalConfig {
  tenantCode: string;
  /** System type (mjSystem): 21 to 29 are gate deployments with national cryptography. */
  mjSystem: number;
  isPrivateDeployment: boolean;
  systemName: string;
  /** The tenant's skin: DASUI001, DASUI003 or DASUI004. */
  skin: string;
  /**
   * Minutes east of UTC of the user's clock (user settings timeZone.utcDiff): show every time on it, as the shell does
   * (`formatTime` of `@campus/subapp-sdk/time`), and name it (`zoneName`) where it matters.
   */
  utcDiff: number;
  /** The shell's version (main-front). */
  shellVersion: string;
  /** Function codes the user holds, per system code (the permission list). */
  permissions: Record<string, string[]>;
}

/** A menu page of the user (spec §3 "Menu data"), already filtered by function rights. */
export interface ShellRoute {
  id: string;
  path: string;
  name: string;
  /** In the current language. */
  title: string;
  appNo: string;
  parentId: string | null;
}

/** Envelope calls through the shell's request layer: headers of spec §7, 401 and error handling of §8. */
export interface ShellApi {
  /** Resolves with `data` (and `recordCount` when the call pages); rejects with the business code on failure. */
  get<T>(path: string, query?: Record<string, string | number | boolean | undefined>): Promise<ShellApiResult<T>>;
  post<T>(path: string, body?: unknown): Promise<ShellApiResult<T>>;
}

export interface ShellApiResult<T> {
  data: T;
  recordCount?: number;
}

/**
 * What the shell puts in the props of every lifecycle call (plus qiankun's own `container` and `name`). They are as
 * of that call: texts the server localises (userInfo.tenantName, globalConfig.systemName, the routers' titles) stay
 * in the language of the mount. After a language change, fetch what you show in the new language (your calls send
 * the shell's current language).
 */
export interface ShellProps {
  userInfo: ShellUserInfo;
  globalConfig: ShellGlobalConfig;
  /** The user's pages of this sub-app's systems. */
  routers: ShellRoute[];
  /** The language at mount time; later changes arrive through onLanguageChange. */
  language: ShellLanguage;
  logoUrl: string;
  /** Opens the shell's Change Password dialog. */
  changePwd: () => void;
  /**
   * Opens a path of a system (`app` is its system code, e.g. 'kq'; `path` a path of that system). Returns false,
   * and does nothing, when the system is not enabled for the user.
   */
  navigate: (app: string, path: string) => boolean;
  api: ShellApi;
  /** The route base of this sub-app, e.g. '/qy/' ('/' for an empty base path). */
  basePath: string;
  /**
   * (SDK 1.1) Called by the SDK at bootstrap with what the sub-app was built with. Throws, in the user's language,
   * when this shell cannot mount it (an SDK of another major version, or a newer minor one): the shell then shows its
   * "does not fit" page instead of the sub-app. Absent in older shells.
   */
  checkSubApp?: (report: SubAppReport) => void;
  /**
   * (SDK 1.1) The sub-app failed after it mounted (an error that left it without content): the shell shows its
   * "failed" page with Retry, naming the sub-app and its version, in place of the sub-app. Use the mount context's
   * `fail` (or the React helper `renderInShell`), which calls this only while the sub-app is mounted.
   */
  reportFailure?: (error: unknown) => void;
}

/** What a sub-app tells the shell about itself at bootstrap. */
export interface SubAppReport {
  /** The version of this SDK the sub-app was built with. */
  sdkVersion: string;
  /** The sub-app's own name and version, as its supplier ships it (shown when it fails). */
  name?: string;
  version?: string;
}

/** The one piece of state that changes while a sub-app is mounted, broadcast by the shell. */
export interface ShellBroadcast {
  language: ShellLanguage;
}

/**
 * How a ShellApi call rejects (added compatibly): an Error that carries the envelope's business code and the HTTP
 * status. The shell's request layer rejects with this shape (its RequestError); so does the SDK's standalone api.
 * - business failure on a 2xx answer: `code` set (non-zero last digit), `status` null;
 * - HTTP failure (400, 401, 403, 404, 5xx): `status` set, `code` from the envelope when the answer had one;
 * - network failure or timeout: both null.
 * Use `isShellApiError` / `isPermissionDenied` from the SDK rather than reading fields of an unknown value.
 */
export interface ShellApiError extends Error {
  readonly code: number | null;
  readonly status: number | null;
  readonly data?: unknown;
}
