import { newId } from '../../lib/hash.ts';
import type { OperationLogRepository, OperationLogRow } from './operation-log-repository.ts';

export type OperationAction = 'login' | 'ldap-login' | 'lock' | 'logout' | 'change-password';
export type OperationResult = 'success' | 'failure' | 'locked' | 'disabled' | 'no-local-account';

export interface OperationEntry {
  tenantCode: string;
  account: string;
  action: OperationAction;
  result: OperationResult;
  clientIp: string;
  /** Free text without secrets (never a password or token). */
  detail?: string;
}

/** Who did what and when: sign-ins, locks, logouts, password changes (and later licence and card actions). */
export class OperationLogService {
  constructor(
    private readonly repo: OperationLogRepository,
    private readonly now: () => number,
  ) {}

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

  async search(tenantCode: string, index: number, size: number): Promise<{ rows: OperationLogRow[]; count: number }> {
    const [rows, count] = await Promise.all([this.repo.page(tenantCode, (index - 1) * size, size), this.repo.count(tenantCode)]);
    return { rows, count };
  }
}
