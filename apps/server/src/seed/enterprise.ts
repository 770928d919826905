import type { NewDepartment, NewEmployee } from '../modules/enterprise/enterprise-service.ts';

/** A tenant's demo organisation: the first department is the root, the others sit under it. */
export interface DemoOrganisation {
  tenantCode: string;
  departments: NewDepartment[];
  employees: NewEmployee[];
}

const givenNames = ['Alex', 'Bella', 'Chen', 'Daniel', 'Elena', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jun', 'Kofi', 'Lena'];
const familyNames = ['Wang', 'Li', 'Zhang', 'Liu', 'Chan', 'Wong', 'Ho', 'Lam', 'Smith', 'Silva', 'Costa'];

function organisation(tenantCode: string, codePrefix: string, departmentNames: string[], employeeCount: number): DemoOrganisation {
  const departments = departmentNames.map((name, i) => ({
    id: `dep-${tenantCode}-${i + 1}`,
    name,
    parentId: i === 0 ? null : `dep-${tenantCode}-1`,
    sortNum: (i + 1) * 10,
  }));
  const employees = Array.from({ length: employeeCount }, (_, i) => {
    const number = String(i + 1).padStart(4, '0');
    return {
      id: `emp-${tenantCode}-${number}`,
      code: `${codePrefix}${number}`,
      // the same inputs always give the same names: given names cycle, family names step by 5
      name: `${givenNames[i % givenNames.length]} ${familyNames[(i * 5) % familyNames.length]}`,
      departmentId: departments[i % departments.length]?.id ?? `dep-${tenantCode}-1`,
    };
  });
  return { tenantCode, departments, employees };
}

/** The demo's departments and employees: 6 and 48 in tenant 1001, 2 and 9 in tenant 1002 (never in production). */
export function demoOrganisations(): DemoOrganisation[] {
  return [
    organisation('1001', 'E', ['Head Office', 'Administration', 'Finance', 'Human Resources', 'Security', 'Facilities'], 48),
    organisation('1002', 'B', ['Branch Office', 'Operations'], 9),
  ];
}
