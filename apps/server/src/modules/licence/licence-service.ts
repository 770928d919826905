import type { LicencePermission } from '@campus/contracts';
import { newId } from '../../lib/hash.ts';
import type { LicenceRepository } from './licence-repository.ts';

/** Licence state codes (spec §4). */
export const licenceStates = { notActivated: 0, notStarted: 1, expired: 2, aboutToExpire: 3, inEffect: 4, normal: 5, replaced: 6 } as const;
/** Licence types: 2 formal, 3 trial, 4 none yet (spec §4 licence prompt). */
export const licenceTypes = { tampered: 1, formal: 2, trial: 3, none: 4 } as const;

export interface NewLicence {
  code: string;
  beginTime: number;
  endTime: number;
  licenseType: number;
  isFormal: boolean;
  empCount: number;
}

/**
 * Licences. For now only what GetLicensePermission needs, from stored rows and the clock; signed
 * licence files, activation and trials come later in this module.
 */
export class LicenceService {
  constructor(
    private readonly repo: LicenceRepository,
    private readonly now: () => number,
  ) {}

  async add(licence: NewLicence): Promise<void> {
    await this.repo.insert({
      id: newId(),
      code: licence.code,
      begin_time: licence.beginTime,
      end_time: licence.endTime,
      activate_time: licence.beginTime,
      state: licenceStates.normal,
      license_type: licence.licenseType,
      is_formal: licence.isFormal ? 1 : 0,
      emp_count: licence.empCount,
      created_at: this.now(),
    });
  }

  async permission(isSystemAdmin: boolean): Promise<LicencePermission> {
    const now = this.now();
    const rows = (await this.repo.all()).filter((r) => r.state !== licenceStates.replaced);
    const inEffect = rows.find((r) => r.begin_time <= now && now <= r.end_time);
    const base = { isSystemAdmin, isViewPermission: isSystemAdmin, isAddOfficialPermission: isSystemAdmin };
    if (inEffect) {
      return { ...base, isNormal: true, isAddTrialPermission: false, licenseType: inEffect.license_type, licenseState: licenceStates.normal };
    }
    if (rows.length === 0) {
      return { ...base, isNormal: false, isAddTrialPermission: isSystemAdmin, licenseType: licenceTypes.none, licenseState: licenceStates.notActivated };
    }
    // The prompt of spec §4 reads state 2 as "not yet started" and state 3 as "expired".
    const upcoming = rows.some((r) => r.begin_time > now);
    const latest = rows[rows.length - 1];
    return {
      ...base,
      isNormal: false,
      isAddTrialPermission: false,
      licenseType: latest?.license_type ?? licenceTypes.none,
      licenseState: upcoming ? 2 : 3,
    };
  }
}
