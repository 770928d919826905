import { sql } from 'kysely';
import type { Insertable, Kysely, Selectable, SelectQueryBuilder } from 'kysely';
import type { OperationAction } from '@campus/contracts';
import type { DB, OperationLogsTable } from '../../db/schema.ts';
import { containsPattern } from '../../db/contains-pattern.ts';

export type OperationLogRecord = Selectable<OperationLogsTable>;

/** The filters of a search; every one is optional and they combine with AND. */
export interface OperationLogFilter {
  /** Inclusive bounds on created_at (epoch ms). */
  startTime?: number;
  endTime?: number;
  /** Part of the account, case-insensitive, taken literally (% and _ are not wildcards). */
  operator?: string;
  action?: OperationAction;
}

export class OperationLogRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async insert(row: Insertable<OperationLogsTable>): Promise<void> {
    await this.db.insertInto('operation_logs').values(row).execute();
  }

  private matching<O>(query: SelectQueryBuilder<DB, 'operation_logs', O>, tenantCodes: readonly string[], filter: OperationLogFilter): SelectQueryBuilder<DB, 'operation_logs', O> {
    let q = tenantCodes.length === 1 ? query.where('tenant_code', '=', tenantCodes[0]!) : query.where('tenant_code', 'in', tenantCodes);
    if (filter.startTime !== undefined) q = q.where('created_at', '>=', filter.startTime);
    if (filter.endTime !== undefined) q = q.where('created_at', '<=', filter.endTime);
    if (filter.action !== undefined) q = q.where('action', '=', filter.action);
    if (filter.operator !== undefined) {
      // An explicit escape character: SQLite has none by default, PostgreSQL has '\'; both sides are folded
      // by the database's lower() (made Unicode-aware on SQLite in db/database.ts).
      const pattern = containsPattern(filter.operator);
      q = q.where(sql<boolean>`lower(${sql.ref('account')}) like lower(${pattern}) escape '\\'`);
    }
    return q;
  }

  /** Newest first; rows of one time in a fixed order (the index operation_logs_tenant_time serves both). */
  page(tenantCodes: readonly string[], filter: OperationLogFilter, offset: number, limit: number): Promise<OperationLogRecord[]> {
    return this.matching(this.db.selectFrom('operation_logs').selectAll(), tenantCodes, filter)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(offset)
      .limit(limit)
      .execute();
  }

  async count(tenantCodes: readonly string[], filter: OperationLogFilter): Promise<number> {
    const row = await this.matching(this.db.selectFrom('operation_logs').select((eb) => eb.fn.countAll<number | string>().as('n')), tenantCodes, filter).executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
