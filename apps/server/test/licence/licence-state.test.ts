import { describe, expect, it } from 'vitest';
import { licenceCondition, licenceStates, licenceTypes } from '@campus/contracts';
import { dayMs, effectiveness, licenceStatus, termDays } from '../../src/modules/licence/licence-state.ts';
import type { EvaluatedLicence } from '../../src/modules/licence/licence-state.ts';

const begin = Date.UTC(2026, 0, 1);
const end = Date.UTC(2027, 0, 1);
const permanentEnd = Date.parse('2099-12-31T23:59:59+08:00');

describe('effectiveness at each boundary', () => {
  it('begin is inclusive: one ms before is not started, the begin itself is in effect', () => {
    expect(effectiveness(begin, end, begin - 1)).toBe(licenceStates.notStarted);
    expect(effectiveness(begin, end, begin)).toBe(licenceStates.normal);
  });
  it('end is inclusive: the end itself is in effect (about to expire), one ms after is expired', () => {
    expect(effectiveness(begin, end, end)).toBe(licenceStates.aboutToExpire);
    expect(effectiveness(begin, end, end + 1)).toBe(licenceStates.expired);
  });
  it('about to expire from 30 days before the end', () => {
    expect(effectiveness(begin, end, end - 30 * dayMs - 1)).toBe(licenceStates.normal);
    expect(effectiveness(begin, end, end - 30 * dayMs)).toBe(licenceStates.aboutToExpire);
  });
  it('an end in 2099 (or none) is permanent: never about to expire', () => {
    expect(effectiveness(begin, permanentEnd, begin)).toBe(licenceStates.inEffect);
    expect(effectiveness(begin, permanentEnd, permanentEnd - dayMs)).toBe(licenceStates.inEffect);
    expect(effectiveness(begin, Date.parse('2099-01-01T00:00:00+08:00'), begin)).toBe(licenceStates.inEffect);
    expect(effectiveness(begin, Date.parse('2098-12-31T00:00:00Z'), begin)).toBe(licenceStates.normal);
    expect(effectiveness(null, null, begin)).toBe(licenceStates.inEffect);
  });
  it('term is whole days to the end of the last day, null when a bound follows the system permission', () => {
    expect(termDays(begin, end)).toBe(365);
    // a licence ends at the last moment of its last day: 30 days, not 29 (issue 15: "1 year 364 days")
    expect(termDays(begin, begin + 30 * dayMs - 1)).toBe(30);
    expect(termDays(null, end)).toBeNull();
  });
});

const formal = (over: Partial<EvaluatedLicence> = {}): EvaluatedLicence => ({ state: licenceStates.normal, licenseType: licenceTypes.formal, check: 'ok', effectiveness: licenceStates.normal, ...over });

describe('licence status (GetLicensePermission) in the reading of licenceCondition', () => {
  const condition = (licences: EvaluatedLicence[], setBack = false) => licenceCondition(licenceStatus(licences, setBack));
  it('each prompt', () => {
    expect(condition([])).toBe('none');
    expect(condition([formal()])).toBe('normal');
    expect(condition([formal({ effectiveness: licenceStates.aboutToExpire })])).toBe('normal');
    expect(condition([formal()], true)).toBe('tampered');
    expect(condition([formal({ check: 'tampered' })])).toBe('tampered');
    expect(condition([formal({ check: 'otherInstallation' })])).toBe('failedCheck');
    expect(condition([formal({ effectiveness: licenceStates.notStarted })])).toBe('notStarted');
    expect(condition([formal({ effectiveness: licenceStates.expired })])).toBe('expired');
    expect(condition([formal({ state: 0, check: 'otherInstallation' })])).toBe('nonePassed');
    expect(condition([formal({ state: 0, effectiveness: licenceStates.expired }), formal({ state: 6, effectiveness: licenceStates.expired })])).toBe('noneValid');
    expect(condition([formal({ state: 0 })])).toBe('none');
  });
  it('a trial in effect is type 3', () => {
    expect(licenceStatus([formal({ licenseType: licenceTypes.trial })], false)).toEqual({ isNormal: true, licenseType: 3, licenseState: 5 });
  });
});
