import { describe, expect, it } from 'vitest';
import { decideLicencePrompt, promptTextKey } from './licence-prompt-decision.ts';
import { expiredForAdmin } from './licence-fixtures.test-data.ts';

const admin = expiredForAdmin;
const all = { view: true, trial: true, formal: true };

describe('decideLicencePrompt', () => {
  it('a normal licence: no prompt', () => {
    expect(decideLicencePrompt({ ...admin, isNormal: true, licenseState: 0 })).toBeNull();
  });

  it.each([
    [{ licenseType: 4, licenseState: 0 }, 'none'],
    [{ licenseType: 2, licenseState: 2 }, 'notStarted'],
    [{ licenseType: 2, licenseState: 3 }, 'expired'],
    [{ licenseType: 2, licenseState: 4 }, 'failedCheck'],
    [{ licenseType: 3, licenseState: 5 }, 'nonePassed'],
    [{ licenseType: 3, licenseState: 6 }, 'noneValid'],
    [{ licenseType: 1, licenseState: 3 }, 'failedCheck'],
  ] as const)('administrator, %o: the %s prompt with every link allowed', (status, condition) => {
    expect(decideLicencePrompt({ ...admin, ...status })).toEqual({ kind: 'prompt', condition, links: all });
  });

  it('tampered (licenseType 1) without view permission: the error dialog', () => {
    expect(decideLicencePrompt({ ...admin, licenseType: 1, isViewPermission: false })).toEqual({ kind: 'tampered' });
  });

  it('links follow the permissions one by one', () => {
    expect(decideLicencePrompt({ ...admin, isViewPermission: false, isAddTrialPermission: false })).toEqual({
      kind: 'prompt',
      condition: 'expired',
      links: { view: false, trial: false, formal: true },
    });
    expect(decideLicencePrompt({ ...admin, licenseType: 4, isAddOfficialPermission: false, isViewPermission: false })).toEqual({
      kind: 'prompt',
      condition: 'none',
      links: { view: false, trial: true, formal: false },
    });
  });

  it('anyone but a system administrator gets the employee dialog, whatever the state but tampered', () => {
    for (const status of [{ licenseType: 4 }, { licenseState: 2 }, { licenseState: 3 }, { licenseState: 6 }]) {
      expect(decideLicencePrompt({ ...admin, ...status, isSystemAdmin: false, isViewPermission: false })).toEqual({ kind: 'employee' });
    }
  });

  it('a tampered licence tells everyone without view permission so, employees included (spec §4)', () => {
    expect(decideLicencePrompt({ ...admin, licenseType: 1, isSystemAdmin: false, isViewPermission: false })).toEqual({ kind: 'tampered' });
  });

  it('names the text key of a condition', () => {
    expect(promptTextKey('noneValid')).toBe('licence.prompt.noneValid');
  });
});
