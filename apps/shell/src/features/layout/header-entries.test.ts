import { describe, expect, it } from 'vitest';
import { headerEntries, type HeaderContext } from './header-entries.ts';

const base: HeaderContext = { permissions: [{ appCode: 'qy', ids: ['1001000'] }], isPrivateDeployment: false, isSystemAdmin: false, opsPlatformUrl: '' };

describe('conditional header entries (spec §6)', () => {
  it('shows none of them to a plain user on a cloud deployment', () => {
    expect(headerEntries(base)).toEqual({ deviceService: false, opsPlatform: false, backupLogs: false, goHome: false });
  });

  it('Device Service needs function code 1003163', () => {
    expect(headerEntries({ ...base, permissions: [{ appCode: 'qy', ids: ['1003163'] }] }).deviceService).toBe(true);
  });

  it('Backup Logs on private deployments; the operations platform also needs a system administrator and an address', () => {
    const privateDeployment = { ...base, isPrivateDeployment: true, opsPlatformUrl: 'https://ops.example.local/' };
    expect(headerEntries(privateDeployment)).toMatchObject({ backupLogs: true, opsPlatform: false });
    expect(headerEntries({ ...privateDeployment, isSystemAdmin: true })).toMatchObject({ backupLogs: true, opsPlatform: true });
    expect(headerEntries({ ...privateDeployment, isSystemAdmin: true, opsPlatformUrl: '' }).opsPlatform).toBe(false);
    expect(headerEntries({ ...base, isSystemAdmin: true, opsPlatformUrl: 'https://ops.example.local/' }).opsPlatform).toBe(false);
  });

  it.each(['1002000', '1002003', '1002004', '1002040'])('go-home shortcut with xt and %s', (code) => {
    expect(headerEntries({ ...base, permissions: [{ appCode: 'xt', ids: [code] }] }).goHome).toBe(true);
  });

  it('no go-home shortcut with the codes outside xt, or xt without them', () => {
    expect(headerEntries({ ...base, permissions: [{ appCode: 'qy', ids: ['1002000'] }] }).goHome).toBe(false);
    expect(headerEntries({ ...base, permissions: [{ appCode: 'xt', ids: ['1002999'] }] }).goHome).toBe(false);
  });
});
