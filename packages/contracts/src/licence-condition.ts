import type { LicencePermission } from './dto.ts';
import { licenceTypes } from './licence.ts';

/**
 * What a licence status means to people, by the reading of spec §4 "Licence prompt" (the one the server
 * computes its states by): licenseType 4 no licence yet, 1 tampered; state 2 not yet started, 3 expired,
 * 4 failed check, 5 none passed the check, 6 none within validity.
 */
export type LicenceCondition = 'normal' | 'none' | 'tampered' | 'notStarted' | 'expired' | 'failedCheck' | 'nonePassed' | 'noneValid';

export function licenceCondition(status: Pick<LicencePermission, 'isNormal' | 'licenseType' | 'licenseState'>): LicenceCondition {
  if (status.licenseType === licenceTypes.tampered) return 'tampered';
  if (status.isNormal) return 'normal';
  if (status.licenseType === licenceTypes.none) return 'none';
  switch (status.licenseState) {
    case 2:
      return 'notStarted';
    case 3:
      return 'expired';
    case 5:
      return 'nonePassed';
    case 6:
      return 'noneValid';
    default:
      return 'failedCheck';
  }
}
