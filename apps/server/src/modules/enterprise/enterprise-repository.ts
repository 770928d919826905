import type { Insertable, Kysely } from 'kysely';
import type { DB, DepartmentsTable, EmployeesTable } from '../../db/schema.ts';

/** Departments and employees of each tenant. */
export class EnterpriseRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async insertDepartments(rows: Insertable<DepartmentsTable>[]): Promise<void> {
    if (rows.length > 0) await this.db.insertInto('departments').values(rows).execute();
  }

  async insertEmployees(rows: Insertable<EmployeesTable>[]): Promise<void> {
    if (rows.length > 0) await this.db.insertInto('employees').values(rows).execute();
  }

  async countDepartments(tenantCode: string): Promise<number> {
    const row = await this.db
      .selectFrom('departments')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('tenant_code', '=', tenantCode)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async countEmployees(tenantCode: string): Promise<number> {
    const row = await this.db
      .selectFrom('employees')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('tenant_code', '=', tenantCode)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
