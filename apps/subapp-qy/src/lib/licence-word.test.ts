import { describe, expect, it } from 'vitest';
import { licenceCondition } from '@campus/contracts';
import { licenceTone } from './licence-word.ts';

describe('licence condition on the home page', () => {
  it('reads the server’s status the way the licence prompts do (spec §4)', () => {
    expect(licenceCondition({ isNormal: true, licenseType: 2, licenseState: 5 })).toBe('normal');
    expect(licenceCondition({ isNormal: false, licenseType: 4, licenseState: 0 })).toBe('none');
    expect(licenceCondition({ isNormal: false, licenseType: 2, licenseState: 2 })).toBe('notStarted');
    expect(licenceCondition({ isNormal: false, licenseType: 3, licenseState: 3 })).toBe('expired');
    expect(licenceCondition({ isNormal: false, licenseType: 2, licenseState: 4 })).toBe('failedCheck');
    expect(licenceCondition({ isNormal: false, licenseType: 2, licenseState: 5 })).toBe('nonePassed');
    expect(licenceCondition({ isNormal: false, licenseType: 2, licenseState: 6 })).toBe('noneValid');
    for (const licenseState of [0, 2, 3, 5]) expect(licenceCondition({ isNormal: true, licenseType: 1, licenseState })).toBe('tampered');
  });

  it('colours normal green, what will pass by itself amber, the rest red', () => {
    expect(licenceTone('normal')).toBe('success');
    expect(licenceTone('notStarted')).toBe('warning');
    expect(licenceTone('none')).toBe('warning');
    expect(licenceTone('expired')).toBe('error');
    expect(licenceTone('tampered')).toBe('error');
    expect(licenceTone('noneValid')).toBe('error');
  });
});
