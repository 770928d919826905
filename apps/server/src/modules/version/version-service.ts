import { codes } from '@campus/contracts';
import type { VersionEntry } from '@campus/contracts';
import { AppError } from '../../http/envelope.ts';
import type { ReportableVersions } from './reportable-versions.ts';
import type { VersionRepository } from './version-repository.ts';

/** This server's own name in the version list. */
export const serverServiceName = 'campus-server';

export interface VersionServiceDeps {
  repo: VersionRepository;
  reportable: ReportableVersions;
  /** This server's own entry, listed first. */
  own: VersionEntry;
  now: () => number;
}

/** Program versions reported to this installation (spec §3 "Version entry"). */
export class VersionService {
  private readonly repo: VersionRepository;
  private readonly reportable: ReportableVersions;
  private readonly own: VersionEntry;
  private readonly now: () => number;

  constructor(deps: VersionServiceDeps) {
    this.repo = deps.repo;
    this.reportable = deps.reportable;
    this.own = deps.own;
    this.now = deps.now;
  }

  /** Stores the entries, all or none: each must be one of this installation's programs (ReportableVersions). */
  async report(entries: VersionEntry[]): Promise<void> {
    const unknown = await this.reportable.firstUnknown(entries, (address) => this.repo.servicesAt(address));
    if (unknown) {
      throw new AppError(codes.versionNotReportable, { status: 400, values: { serviceName: unknown.serviceName, version: unknown.version, address: unknown.address } });
    }
    const reportedAt = this.now();
    await this.repo.upsertAll(entries.map((e) => ({ address: e.address, service_name: e.serviceName, version: e.version, reported_at: reportedAt })));
  }

  /** The folders under /subapps/ of this server that hold a report-version file. */
  reportFolders(): Promise<string[]> {
    return this.reportable.localReportFolders();
  }

  /** Page `index` (1-based) of `size`: this server first, then every reported program by service name. */
  async list(index: number, size: number): Promise<{ rows: VersionEntry[]; count: number }> {
    const first = (index - 1) * size;
    // this server's own entry is row 0 of the whole list
    const ownOnPage = first === 0;
    const reported = await this.repo.page(ownOnPage ? 0 : first - 1, ownOnPage ? size - 1 : size);
    const rows = reported.map((r) => ({ address: r.address, serviceName: r.service_name, version: r.version }));
    return { rows: ownOnPage ? [{ ...this.own }, ...rows] : rows, count: (await this.repo.count()) + 1 };
  }
}
