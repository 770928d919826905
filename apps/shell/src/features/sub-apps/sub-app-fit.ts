import { sdkVersion, type SubAppReport } from '@campus/subapp-sdk';
import { setSubAppCrashed } from '../../lib/sub-apps.ts';

/**
 * Whether this shell can mount a sub-app built with SDK `appSdk`: the same major version of the contract, and a
 * minor version no newer than the shell's (a newer one may call props this shell does not give). A sub-app that
 * reports nothing (built without the SDK, or with SDK 1.0) is mounted as before.
 */
export function sdkFits(appSdk: string, shellSdk: string = sdkVersion): boolean {
  const app = /^(\d+)\.(\d+)\.\d+/.exec(appSdk);
  const shell = /^(\d+)\.(\d+)\.\d+/.exec(shellSdk);
  if (!app || !shell) return false;
  return app[1] === shell[1] && Number(app[2]) <= Number(shell[2]);
}

/** The SDK versions this shell takes, for the user: from its major's first to its own minor. */
export function acceptedSdkRange(shellSdk: string = sdkVersion): { from: string; to: string } {
  const [major = '0', minor = '0'] = shellSdk.split('.');
  return { from: `${major}.0`, to: `${major}.${minor}` };
}

/** What the shell's failed page says of a sub-app that does not fit; the loader rethrows it to the error handler. */
export class SubAppMisfitError extends Error {
  readonly params: Record<string, string>;
  constructor(app: string, appSdk: string) {
    const { from, to } = acceptedSdkRange();
    super(`${app} was built with sub-app SDK ${appSdk}; this shell takes ${from} to ${to}`);
    this.name = 'SubAppMisfitError';
    this.params = { app, appSdk, from, to };
  }
}

/** What each application reported at its bootstrap, by loader name. */
const reports = new Map<string, SubAppReport>();

/** The sub-app as its supplier names it: its reported name and version, else the loader's name. */
export function subAppLabel(name: string): string {
  const report = reports.get(name);
  return [report?.name || name, report?.version].filter(Boolean).join(' ');
}

/** `checkSubApp` of the props of application `name`: keeps the report, and throws when the sub-app does not fit. */
export function checkSubApp(name: string, report: SubAppReport): void {
  const kept: SubAppReport = {
    sdkVersion: String(report?.sdkVersion ?? ''),
    name: typeof report?.name === 'string' ? report.name.slice(0, 80) : undefined,
    version: typeof report?.version === 'string' ? report.version.slice(0, 40) : undefined,
  };
  reports.set(name, kept);
  if (!sdkFits(kept.sdkVersion)) throw new SubAppMisfitError(subAppLabel(name), kept.sdkVersion.slice(0, 40) || '?');
}

/** `reportFailure` of the props of application `name`: its failed page, naming it and its version. */
export function reportSubAppFailure(name: string, error: unknown): void {
  const detail = error instanceof Error ? error.message : String(error);
  setSubAppCrashed(name, detail.slice(0, 500), { app: subAppLabel(name) });
}
