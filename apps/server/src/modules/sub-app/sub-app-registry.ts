import { subAppsPathPrefix } from '@campus/contracts';
import type { SubAppEntry } from '@campus/contracts';
import { entryOrigin } from '../../lib/sub-app-entry-url.ts';

/** What the registry needs of the menu area: the systems of the catalogue, in their order. */
export interface SystemSource {
  /** As new as the catalogue's change stamp `stamp` when given (db/change-stamps.ts). */
  catalogueSystems(stamp?: number): Promise<{ appNo: string; frontRoutingAddr: string }[]>;
}

/** The origins (scheme://host[:port]) of the entries that live on another server, once each. */
export function entryOrigins(entries: Readonly<Record<string, string>>): string[] {
  return [...new Set(Object.values(entries).map(entryOrigin).filter((o): o is string => o !== null))];
}

/** The entry folder of a system: its base path, or its own code when that is empty (tc). */
function folderOf(appNo: string, frontRoutingAddr: string): string {
  return frontRoutingAddr === '' ? appNo : frontRoutingAddr;
}

export interface SubAppRegistryDeps {
  systems: SystemSource;
  /** SUBAPP_ENTRIES: entry URL by folder. */
  overrides: Readonly<Record<string, string>>;
  /** Whether this server holds a build of the folder (its index.html). */
  holdsBuild: (folder: string) => Promise<boolean>;
  /** Entry URL by system code of the sub-systems an operator registered: theirs comes first. */
  registered?: (stamp?: number) => Promise<ReadonlyMap<string, string>>;
}

/** Where each system's sub-application is loaded from on this deployment (DESIGN §8). */
export class SubAppRegistry {
  private readonly systems: SystemSource;
  private readonly overrides: Readonly<Record<string, string>>;
  private readonly holdsBuild: (folder: string) => Promise<boolean>;
  private readonly registered: (stamp?: number) => Promise<ReadonlyMap<string, string>>;

  constructor(deps: SubAppRegistryDeps) {
    this.systems = deps.systems;
    this.overrides = deps.overrides;
    this.holdsBuild = deps.holdsBuild;
    this.registered = deps.registered ?? (async () => new Map());
  }

  /** Every system's entry; for a signed-in call that read the catalogue's change stamp `stamp`, when given. */
  async entries(stamp?: number): Promise<SubAppEntry[]> {
    const [systems, registered] = await Promise.all([this.systems.catalogueSystems(stamp), this.registered(stamp)]);
    return Promise.all(
      systems.map(async ({ appNo, frontRoutingAddr }) => {
        const folder = folderOf(appNo, frontRoutingAddr);
        const override = registered.get(appNo) ?? (Object.hasOwn(this.overrides, folder) ? this.overrides[folder] : undefined);
        const entry = override ?? `${subAppsPathPrefix}${folder}/`;
        const installed = entry.startsWith(subAppsPathPrefix) ? await this.holdsBuild(entry.slice(subAppsPathPrefix.length)) : true;
        return { appNo, frontRoutingAddr, folder, entry, installed };
      }),
    );
  }

  /** SUBAPP_ENTRIES items whose folder no system of the catalogue uses: never loaded, so reported (List, start-up). */
  async unknownEntries(): Promise<{ folder: string; entry: string }[]> {
    const folders = new Set((await this.systems.catalogueSystems()).map((s) => folderOf(s.appNo, s.frontRoutingAddr)));
    return Object.entries(this.overrides)
      .filter(([folder]) => !folders.has(folder))
      .map(([folder, entry]) => ({ folder, entry }));
  }
}
