import type { LicenceDetail, LicencePermission, LicenceRow } from '@campus/contracts';

const day = 86_400_000;

/** A system administrator with every licence right, on an expired formal licence. */
export const expiredForAdmin: LicencePermission = {
  isNormal: false,
  isSystemAdmin: true,
  isViewPermission: true,
  isAddTrialPermission: true,
  isAddOfficialPermission: true,
  licenseType: 2,
  licenseState: 3,
};
export const jan2026 = Date.UTC(2026, 0, 1);

/** A stored licence; row i is not activated when i % 4 === 0, else in effect. */
export function licenceRow(i: number): LicenceRow {
  return {
    id: `L${i}`,
    code: `LIC-${i}`,
    beginTime: jan2026,
    endTime: i === 1 ? Date.UTC(2099, 11, 31) : jan2026 + 395 * day,
    activateTime: i % 4 === 0 ? null : jan2026 + 3_600_000,
    loseActivateTime: i % 4 === 0 ? null : jan2026 + 425 * day,
    state: i % 4 === 0 ? 0 : 4,
    effectiveness: i % 4 === 0 ? 0 : 5,
    isFormal: i % 2 === 0,
    prdPkgCategory: 'Campus Pro',
    empCount: i === 2 ? 9999999 : 500,
    isLimitDevice: true,
    customerName: 'Harbour School',
    createTime: jan2026 - i * day,
  };
}

export function licenceDetail(i: number, overrides: Partial<LicenceDetail> = {}): LicenceDetail {
  return {
    ...licenceRow(i),
    isHasMobile: true,
    isPermitOpenapi: false,
    term: 395,
    infos: [{ appId: 'kq', appName: `Attendance ${i}`, editionName: 'Standard', beginTime: null, endTime: null, isHasWeb: true, isHasMobile: false }],
    devices: [{ deviceName: 'Gate reader', count: -1, beginTime: null, endTime: null, remarks: 'all gates' }],
    ...overrides,
  };
}
