import { isWithinValidity, licenceLimits, licenceStates, licenceTypes } from '@campus/contracts';
import type { LicencePermission } from '@campus/contracts';

export type LicenceStatus = Pick<LicencePermission, 'isNormal' | 'licenseType' | 'licenseState'>;

export const dayMs = 86_400_000;
/** How far the clock may fall behind the latest time seen before it counts as set back. */
export const clockToleranceMs = 10 * 60_000;
const aboutToExpireMs = licenceLimits.trialDays * dayMs;
/** 2099-01-01 00:00 at UTC+14, the earliest that year starts anywhere: an end from then on is "permanent". */
const permanentFrom = Date.UTC(licenceLimits.permanentYear, 0, 1) - 14 * 3_600_000;

/**
 * Effectiveness of a licence at `now` (spec §4 codes): not started, expired (after its end), about to
 * expire (within 30 days of its end), expires far in the future (4: ending in 2099 or never), normal.
 * Begin and end are inclusive; null follows the system permission (no bound of its own).
 */
export function effectiveness(beginTime: number | null, endTime: number | null, now: number): number {
  if (beginTime !== null && now < beginTime) return licenceStates.notStarted;
  if (endTime !== null && now > endTime) return licenceStates.expired;
  if (endTime === null || endTime >= permanentFrom) return licenceStates.inEffect;
  if (endTime - now <= aboutToExpireMs) return licenceStates.aboutToExpire;
  return licenceStates.normal;
}

/** Days from begin to end (null when either follows the system permission): a licence ends at the last moment of its last day, so 2026-01-01 to 2026-12-31 is 365. */
export function termDays(beginTime: number | null, endTime: number | null): number | null {
  if (beginTime === null || endTime === null) return null;
  return Math.round((endTime - beginTime) / dayMs);
}

/** The result of checking one stored licence: its file (signature, key, installation) and its dates. */
export type LicenceCheck = 'ok' | 'tampered' | 'otherInstallation' | 'untrusted';

export interface EvaluatedLicence {
  state: number;
  licenseType: number;
  check: LicenceCheck;
  effectiveness: number;
}

/**
 * GetLicensePermission's isNormal, licenseType and licenseState, in the reading of spec §4 "Licence prompt"
 * (contracts' licenceCondition): clock set back → tampered; nothing stored → none yet; the active licence
 * decides (tampered → 1; other installation or untrusted → state 4; not started 2; expired 3; else normal 5);
 * without one: none passed the check 5, none within validity 6, or a usable one waiting for activation
 * (type none, state 0). `licences` are newest first.
 */
export function licenceStatus(licences: EvaluatedLicence[], clockSetBack: boolean): LicenceStatus {
  if (clockSetBack) return { isNormal: false, licenseType: licenceTypes.tampered, licenseState: 4 };
  if (licences.length === 0) return { isNormal: false, licenseType: licenceTypes.none, licenseState: licenceStates.notActivated };
  const active = licences.find((l) => l.state === licenceStates.normal);
  if (active) {
    if (active.check === 'tampered') return { isNormal: false, licenseType: licenceTypes.tampered, licenseState: 4 };
    if (active.check !== 'ok') return { isNormal: false, licenseType: active.licenseType, licenseState: 4 };
    if (active.effectiveness === licenceStates.notStarted) return { isNormal: false, licenseType: active.licenseType, licenseState: 2 };
    if (active.effectiveness === licenceStates.expired) return { isNormal: false, licenseType: active.licenseType, licenseState: 3 };
    return { isNormal: true, licenseType: active.licenseType, licenseState: licenceStates.normal };
  }
  const passed = licences.filter((l) => l.check === 'ok');
  const first = passed[0];
  if (!first) return { isNormal: false, licenseType: licences[0]?.licenseType ?? licenceTypes.formal, licenseState: 5 };
  if (!passed.some((l) => isWithinValidity(l.effectiveness))) return { isNormal: false, licenseType: first.licenseType, licenseState: 6 };
  return { isNormal: false, licenseType: licenceTypes.none, licenseState: licenceStates.notActivated };
}
