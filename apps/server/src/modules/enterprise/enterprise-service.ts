import type { HomeFigures } from '@campus/contracts';
import type { LicenceStatus } from '../licence/licence-service.ts';
import type { EnterpriseRepository } from './enterprise-repository.ts';

export interface NewDepartment {
  id: string;
  name: string;
  parentId: string | null;
  sortNum: number;
}

export interface NewEmployee {
  id: string;
  code: string;
  name: string;
  departmentId: string;
}

/** What the home figures need from other areas (their services, never their tables). */
export interface HomeFigureSources {
  sessions: { liveCount(tenantCode: string): Promise<number> };
  licence: { status(): Promise<LicenceStatus> };
}

export interface EnterpriseServiceDeps {
  repo: EnterpriseRepository;
  sources: HomeFigureSources;
  now: () => number;
}

/** The enterprise-data (qy) organisation of each tenant: departments and employees. */
export class EnterpriseService {
  private readonly repo: EnterpriseRepository;
  private readonly sources: HomeFigureSources;
  private readonly now: () => number;

  constructor(deps: EnterpriseServiceDeps) {
    this.repo = deps.repo;
    this.sources = deps.sources;
    this.now = deps.now;
  }

  /** Adds departments of a tenant; parents come before their children. */
  async addDepartments(tenantCode: string, departments: NewDepartment[]): Promise<void> {
    const createdAt = this.now();
    await this.repo.insertDepartments(
      departments.map((d) => ({ id: d.id, tenant_code: tenantCode, name: d.name, parent_id: d.parentId, sort_num: d.sortNum, created_at: createdAt })),
    );
  }

  async addEmployees(tenantCode: string, employees: NewEmployee[]): Promise<void> {
    const createdAt = this.now();
    await this.repo.insertEmployees(
      employees.map((e) => ({ id: e.id, tenant_code: tenantCode, code: e.code, name: e.name, department_id: e.departmentId, created_at: createdAt })),
    );
  }

  /** The tenant's figures as they are now (read on every call, never cached). */
  async homeFigures(tenantCode: string): Promise<HomeFigures> {
    const [employeeCount, departmentCount, activeSessionCount, licence] = await Promise.all([
      this.repo.countEmployees(tenantCode),
      this.repo.countDepartments(tenantCode),
      this.sources.sessions.liveCount(tenantCode),
      this.sources.licence.status(),
    ]);
    return {
      employeeCount,
      departmentCount,
      activeSessionCount,
      licence: { isNormal: licence.isNormal, licenseType: licence.licenseType, licenseState: licence.licenseState },
    };
  }
}
