import type { Insertable, Kysely, Selectable } from 'kysely';
import type { DB, OperationLogsTable } from '../../db/schema.ts';

export type OperationLogRow = Selectable<OperationLogsTable>;

export class OperationLogRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async insert(row: Insertable<OperationLogsTable>): Promise<void> {
    await this.db.insertInto('operation_logs').values(row).execute();
  }

  page(tenantCode: string, offset: number, limit: number): Promise<OperationLogRow[]> {
    return this.db
      .selectFrom('operation_logs')
      .selectAll()
      .where('tenant_code', '=', tenantCode)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .offset(offset)
      .limit(limit)
      .execute();
  }

  async count(tenantCode: string): Promise<number> {
    const row = await this.db
      .selectFrom('operation_logs')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('tenant_code', '=', tenantCode)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
