import type { UserInfo } from '@campus/contracts';

/** The user info of a signed-in system administrator, for the app layer's tests. */
export function signedInUser(overrides: Partial<UserInfo> = {}): UserInfo {
  return {
    id: 'u1',
    code: 'admin',
    isFirstLogin: false,
    name: 'Admin',
    loginTime: 0,
    oprtPwdEditReason: null,
    lockingTime: null,
    isSystemAdmin: true,
    tenantCode: '1001',
    tenantName: 'Harbour',
    cardId: null,
    loginType: 1,
    mayManageCards: false,
    ...overrides,
  };
}
