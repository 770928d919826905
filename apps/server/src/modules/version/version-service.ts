import type { VersionEntry } from '@campus/contracts';
import type { VersionRepository } from './version-repository.ts';

/** This server's own name in the version list. */
export const serverServiceName = 'campus-server';

/** Compares by UTF-16 code units: the same order whatever collation the database uses. */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Program versions reported to this installation (spec §3 "Version entry"). */
export class VersionService {
  constructor(
    private readonly repo: VersionRepository,
    /** This server's own entry, listed first. */
    private readonly own: VersionEntry,
    private readonly now: () => number,
  ) {}

  async report(entries: VersionEntry[]): Promise<void> {
    const reportedAt = this.now();
    await this.repo.upsertAll(entries.map((e) => ({ address: e.address, service_name: e.serviceName, version: e.version, reported_at: reportedAt })));
  }

  /** This server first, then every reported entry by service name, then address. */
  async list(): Promise<VersionEntry[]> {
    const reported = (await this.repo.all())
      .map((r) => ({ address: r.address, serviceName: r.service_name, version: r.version }))
      .sort((a, b) => byText(a.serviceName, b.serviceName) || byText(a.address, b.address));
    return [{ ...this.own }, ...reported];
  }
}
