export type {
  ShellApi,
  ShellApiError,
  ShellApiResult,
  ShellBroadcast,
  ShellGlobalConfig,
  ShellLanguage,
  ShellProps,
  ShellRoute,
  ShellUserInfo,
  SubAppReport,
} from './shared-state.ts';
export { sdkVersion } from './version.ts';
export {
  createShellLanguageStore,
  fallbackShellLanguage,
  isShellLanguage,
  shellLanguages,
  toShellLanguage,
  type ShellLanguageListener,
  type ShellLanguageStore,
} from './language.ts';
export { formatCount } from './numbers.ts';
export { isPermissionDenied, isShellApiError, noPermissionCode, ShellRequestError } from './api-error.ts';
export {
  defaultRootSelector,
  defineSubApp,
  type GlobalStateCallback,
  type QiankunProps,
  type SubAppCleanup,
  type SubAppContext,
  type SubAppLifecycles,
  type SubAppMountProps,
  type SubAppOptions,
} from './lifecycles.ts';
export {
  createDevApi,
  createDevProps,
  isInsideShell,
  runStandalone,
  setStandaloneLanguage,
  standaloneLanguage,
  standaloneLanguageEvent,
  standaloneStorageKeys,
  type DevApiOptions,
  type StandaloneHandle,
  type StandaloneLanguageDetail,
  type StandaloneOptions,
} from './standalone.ts';
export {
  browserUtcDiff,
  formatCalendarDate,
  formatTime,
  fromWallClock,
  wallClock,
  zoneName,
  type FormatTimeOptions,
  type TimeStyle,
  type WallClockFields,
} from './time.ts';
