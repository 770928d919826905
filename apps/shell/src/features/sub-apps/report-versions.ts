import type { ReportVersionFile, VersionEntry } from '@campus/contracts';
import { apiPaths, defaultServicePort, reportVersionFileName, reportVersionRules, shellServiceName, subAppsPathPrefix } from '@campus/contracts';
import { apiGetRaw, apiPostRaw } from '../../lib/request.ts';
import { installedVersion } from '../../lib/installed-version.ts';
import type { SubAppDefinition } from '../../lib/sub-apps.ts';

// the server's own rules for ReportVersion, so a file it would refuse is left out here
const serviceNamePattern = new RegExp(reportVersionRules.serviceNamePattern);
const versionPattern = new RegExp(reportVersionRules.versionPattern);

/**
 * The address a program is reported under (spec §7): a domain name as it is; an address (IPv4, IPv6,
 * localhost) with its port, the default service port when the URL names none.
 */
export function versionAddress(url: URL): string {
  const host = url.hostname;
  const isAddress = /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith('[') || host === 'localhost';
  return isAddress ? `${host}:${url.port || defaultServicePort}` : host;
}

/** A report-version file's contents, or null when it is missing or not in the agreed format. */
export function parseReportVersionFile(value: unknown): ReportVersionFile | null {
  if (typeof value !== 'object' || value === null) return null;
  const { serviceName, version } = value as Partial<ReportVersionFile>;
  if (typeof serviceName !== 'string' || !serviceNamePattern.test(serviceName)) return null;
  if (typeof version !== 'string' || !versionPattern.test(version)) return null;
  return { serviceName, version };
}

async function readReportFile(folderUrl: URL): Promise<VersionEntry | null> {
  try {
    const response = await fetch(new URL(reportVersionFileName, folderUrl), { cache: 'no-cache', credentials: 'same-origin' });
    if (!response.ok) return null;
    const file = parseReportVersionFile(await response.json());
    return file ? { address: versionAddress(folderUrl), ...file } : null;
  } catch {
    return null; // not installed, or not reachable: nothing to report
  }
}

/** The folders of this server that hold a report-version file (the sub-apps' and the device service's), as the server says. */
async function localReportFolders(): Promise<string[]> {
  try {
    const reply = await apiGetRaw<string[]>(apiPaths.reportFolders);
    return reply.code % 10 === 0 && Array.isArray(reply.data) ? reply.data.filter((folder) => typeof folder === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * Reports the shell's version and each sub-app folder's report-version file (spec §7) with ReportVersion.
 * Quiet: it informs About System, and nobody should see a message when a folder has no file. On this server it
 * asks only the folders the server says hold one (a deployment without the device service has no device file:
 * asking put an error in the console on every page load); a sub-app on another server is asked where it lives.
 */
export async function reportVersions(apps: SubAppDefinition[], location: URL): Promise<VersionEntry[]> {
  const elsewhere = apps.filter((app) => app.installed && !app.entry.startsWith(subAppsPathPrefix)).map((app) => new URL(app.entry, location));
  const local = (await localReportFolders()).map((folder) => new URL(`${subAppsPathPrefix}${folder}/`, location));
  const folders = [...local, ...elsewhere];
  const [found, ownVersion] = await Promise.all([Promise.all(folders.map(readReportFile)), installedVersion()]);
  const versions: VersionEntry[] = [
    { address: versionAddress(location), serviceName: shellServiceName, version: ownVersion },
    ...found.filter((entry): entry is VersionEntry => entry !== null),
  ];
  try {
    await apiPostRaw(apiPaths.reportVersion, { versions });
  } catch {
    // the request layer handled a signed-out session; anything else waits for the next sign-in
  }
  return versions;
}
