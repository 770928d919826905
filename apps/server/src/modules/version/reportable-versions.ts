import fs from 'node:fs/promises';
import { reportVersionFileName, shellServiceName, shellVersion, subAppsPathPrefix } from '@campus/contracts';
import type { VersionEntry } from '@campus/contracts';
import type { SubAppFiles } from '../sub-app/sub-app-files.ts';
import type { SubAppRegistry } from '../sub-app/sub-app-registry.ts';

/** The device service's folder, reported like a sub-app's (spec §7). */
const deviceFolder = 'device';

/** What one program may report: its version is checked when the server can read it itself. */
interface Reportable {
  serviceName: string;
  /** The version the server read from the program's own file; null when it lives on another server. */
  version: string | null;
  /** For a program on another server: the address it must be reported under (its host). */
  address: string | null;
}

/** The address a program on another server is reported under, as the shell computes it (a domain name alone). */
function hostOf(url: URL): string {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(url.hostname) || url.hostname.startsWith('[') || url.hostname === 'localhost'
    ? `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`
    : url.hostname;
}

export interface ReportableVersionsDeps {
  registry: SubAppRegistry;
  files: SubAppFiles;
}

/**
 * The programs this installation may list in About System (issue: any session could add any row): the shell
 * itself at this server's version, each registered sub-app and the device service whose report-version file
 * the server reads from its own folders (the reported version must be that file's), and sub-apps configured on
 * another server (SUBAPP_ENTRIES), whose files only the browser can read, under their own host only.
 */
export class ReportableVersions {
  private readonly registry: SubAppRegistry;
  private readonly files: SubAppFiles;

  constructor(deps: ReportableVersionsDeps) {
    this.registry = deps.registry;
    this.files = deps.files;
  }

  private async localFile(folder: string): Promise<Reportable | null> {
    const found = await this.files.lookup(`${folder}/${reportVersionFileName}`);
    if (found.kind !== 'file') return null;
    try {
      const parsed = JSON.parse(await fs.readFile(found.file.path, 'utf8')) as { serviceName?: unknown; version?: unknown };
      if (typeof parsed.serviceName !== 'string' || typeof parsed.version !== 'string') return null;
      return { serviceName: parsed.serviceName, version: parsed.version, address: null };
    } catch {
      return null;
    }
  }

  /** The folders under this server's /subapps/ that may report (each local sub-app's and the device service's), and the hosts of the others. */
  private async folders(): Promise<{ local: Set<string>; remoteHosts: Map<string, string> }> {
    const entries = await this.registry.entries();
    const local = new Set<string>([deviceFolder]);
    const remoteHosts = new Map<string, string>();
    for (const entry of entries) {
      if (entry.entry.startsWith(`${subAppsPathPrefix}`)) local.add(entry.folder);
      else if (!entry.entry.startsWith('/')) remoteHosts.set(entry.folder, hostOf(new URL(entry.entry)));
      // (an entry that is another path on this server is served by another program: not reported here)
    }
    return { local, remoteHosts };
  }

  async list(): Promise<Reportable[]> {
    const { local: folders, remoteHosts } = await this.folders();
    // one program per folder on another server (several systems may share a folder: mj and tk)
    const remote: Reportable[] = [...remoteHosts.values()].map((address) => ({ serviceName: '', version: null, address }));
    const local = (await Promise.all([...folders].map((f) => this.localFile(f)))).filter((r): r is Reportable => r !== null);
    return [{ serviceName: shellServiceName, version: shellVersion, address: null }, ...local, ...remote];
  }

  /** The folders on this server that hold a report-version file: the shell asks only these, not every folder that might. */
  async localReportFolders(): Promise<string[]> {
    const { local } = await this.folders();
    const held = await Promise.all([...local].map(async (folder) => ((await this.files.lookup(`${folder}/${reportVersionFileName}`)).kind === 'file' ? folder : null)));
    return held.filter((folder): folder is string => folder !== null);
  }

  /**
   * The first entry that is not one of this installation's programs, or null when all are. `storedByHost`
   * counts the services already listed per address: a host of other servers' sub-apps may hold at most as
   * many services as sub-apps are configured there, so the list cannot grow without bound.
   */
  async firstUnknown(entries: VersionEntry[], storedByHost: (address: string) => Promise<string[]>): Promise<VersionEntry | null> {
    const allowed = await this.list();
    const remoteNames = new Map<string, Set<string>>();
    for (const entry of entries) {
      const local = allowed.some((r) => r.address === null && r.serviceName === entry.serviceName && r.version === entry.version);
      if (local) continue;
      const slots = allowed.filter((r) => r.address !== null && r.address === entry.address).length;
      if (slots === 0) return entry;
      let names = remoteNames.get(entry.address);
      if (!names) {
        names = new Set(await storedByHost(entry.address));
        remoteNames.set(entry.address, names);
      }
      names.add(entry.serviceName);
      if (names.size > slots) return entry;
    }
    return null;
  }
}
