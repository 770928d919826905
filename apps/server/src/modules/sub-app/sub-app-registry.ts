import { subAppsPathPrefix } from '@campus/contracts';
import type { SubAppEntry } from '@campus/contracts';

/** What the registry needs of the menu area: the systems of the catalogue, in their order. */
export interface SystemSource {
  catalogueSystems(): Promise<{ appNo: string; frontRoutingAddr: string }[]>;
}

/** The origins (scheme://host[:port]) of the entries that live on another server, once each. */
export function entryOrigins(entries: Readonly<Record<string, string>>): string[] {
  const origins = Object.values(entries)
    .filter((url) => !url.startsWith('/'))
    .map((url) => new URL(url).origin);
  return [...new Set(origins)];
}

/** Where each system's sub-application is loaded from on this deployment (DESIGN §8). */
export class SubAppRegistry {
  constructor(
    private readonly systems: SystemSource,
    /** SUBAPP_ENTRIES: entry URL by folder. */
    private readonly overrides: Readonly<Record<string, string>>,
    /** Whether this server holds a build of the folder (its index.html). */
    private readonly holdsBuild: (folder: string) => Promise<boolean>,
  ) {}

  async entries(): Promise<SubAppEntry[]> {
    return Promise.all(
      (await this.systems.catalogueSystems()).map(async ({ appNo, frontRoutingAddr }) => {
        // tc has an empty base path: its folder is its own code
        const folder = frontRoutingAddr === '' ? appNo : frontRoutingAddr;
        const override = Object.hasOwn(this.overrides, folder) ? this.overrides[folder] : undefined;
        const entry = override ?? `${subAppsPathPrefix}${folder}/`;
        const installed = entry.startsWith(subAppsPathPrefix) ? await this.holdsBuild(entry.slice(subAppsPathPrefix.length)) : true;
        return { appNo, frontRoutingAddr, folder, entry, installed };
      }),
    );
  }
}
