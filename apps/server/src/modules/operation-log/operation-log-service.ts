import type { Kysely } from 'kysely';
import type { OperationAction, OperationLogRow, OperationResult } from '@campus/contracts';
import type { DB } from '../../db/schema.ts';
import { newId } from '../../lib/hash.ts';
import { OperationLogRepository } from './operation-log-repository.ts';
import type { OperationLogFilter, OperationLogRecord } from './operation-log-repository.ts';

/**
 * The tenant code of an entry about the whole installation rather than one tenant (gate set-up, the mother card,
 * system key cards, card issuers trusted with the system key): every system administrator of every tenant sees it.
 */
export const installationWide = '';

export interface OperationEntry {
  /** The acting tenant's code, or installationWide. */
  tenantCode: string;
  account: string;
  action: OperationAction;
  result: OperationResult;
  clientIp: string;
  /** Free text without secrets (never a password or token). */
  detail?: string;
}

function toRow(record: OperationLogRecord): OperationLogRow {
  return {
    id: record.id,
    tenantCode: record.tenant_code,
    account: record.account,
    action: record.action as OperationAction,
    result: record.result as OperationResult,
    clientIp: record.client_ip,
    detail: record.detail,
    createdAt: Number(record.created_at),
  };
}

export interface OperationLogServiceDeps {
  repo: OperationLogRepository;
  now: () => number;
}

/** Who did what and when: sign-ins, locks, logouts, password changes (and later licence and card actions). */
export class OperationLogService {
  private readonly repo: OperationLogRepository;
  private readonly now: () => number;

  constructor(deps: OperationLogServiceDeps) {
    this.repo = deps.repo;
    this.now = deps.now;
  }

  /**
   * The same log written through `db`, a transaction: an action and its entry land together or not at all (a crash
   * between them would leave a change nobody logged).
   */
  over(db: Kysely<DB>): OperationLogService {
    return new OperationLogService({ repo: new OperationLogRepository(db), now: this.now });
  }

  async record(entry: OperationEntry): Promise<void> {
    await this.repo.insert({
      id: newId(),
      tenant_code: entry.tenantCode,
      account: entry.account.slice(0, 128),
      action: entry.action,
      result: entry.result,
      client_ip: entry.clientIp,
      detail: entry.detail ?? null,
      created_at: this.now(),
    });
  }

  /**
   * One page (index from 1) of the tenant's log, newest first, and how many rows match the filter in all; with
   * `withInstallation` (a system administrator reads it) the installation-wide entries among them.
   */
  async search(tenantCode: string, filter: OperationLogFilter, index: number, size: number, withInstallation = false): Promise<{ rows: OperationLogRow[]; count: number }> {
    const tenants = withInstallation ? [tenantCode, installationWide] : [tenantCode];
    const [records, count] = await Promise.all([this.repo.page(tenants, filter, (index - 1) * size, size), this.repo.count(tenants, filter)]);
    return { rows: records.map(toRow), count };
  }
}
