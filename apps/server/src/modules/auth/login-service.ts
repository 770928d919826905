import { codes, decideForcedChange, loginTypes } from '@campus/contracts';
import { countLockout, countSignIn } from '../../lib/metrics.ts';
import type { SignInKind } from '../../lib/metrics.ts';
import type { LoginFailureData, LoginInfo, LoginType, OperationAction, OperationResult } from '@campus/contracts';
import type { LdapConfig } from '../../config.ts';
import { AppError } from '../../http/envelope.ts';
import type { AccountService } from '../account/account-service.ts';
import type { UserRow } from '../account/account-repository.ts';
import type { MenuService } from '../menu/menu-service.ts';
import type { OperationLogService } from '../operation-log/operation-log-service.ts';
import type { CaptchaService } from './captcha-service.ts';
import { checkDirectoryPassword, LdapUnavailableError } from './ldap-directory.ts';
import type { LdapClientFactory } from './ldap-directory.ts';
import type { LockoutService } from '../sessions/lockout-service.ts';
import type { SessionService } from '../sessions/session-service.ts';
import { lockedError, throttledError } from '../sessions/lockout-errors.ts';

export interface VerifyModel {
  verifyKey?: string;
  imageVerifyCode?: string;
}

export interface Attempt {
  account: string;
  tenantCode?: string;
  verifyModel?: VerifyModel;
  clientIp: string;
}

export interface LoginServiceDeps {
  account: AccountService;
  sessions: SessionService;
  captcha: CaptchaService;
  lockout: LockoutService;
  logs: OperationLogService;
  /** Decides whether the user has any sub-system enabled (the same permission list GetPermission answers). */
  menu: Pick<MenuService, 'permissions'>;
  /** Deployment-wide image verification code (IMAGE_CODE). */
  imageCode: boolean;
  ldap: LdapConfig | null;
  ldapClientFactory: LdapClientFactory;
  now: () => number;
}

/** The sign-in kind of the metrics (lib/metrics.ts) for each operation-log action of a sign-in. */
const signInKinds = { 'login': 'password', 'ldap-login': 'ldap', 'card-login': 'card', 'sso-login': 'sso' } as const satisfies Record<string, SignInKind>;
export type SignInAction = keyof typeof signInKinds;

/**
 * Sign-in by password digest (weblogin, accountLogin) and by LDAP. Check order (DESIGN §5):
 * schema (routes) → captcha (when on or required) → lock → credentials.
 */
export class LoginService {
  constructor(private readonly deps: LoginServiceDeps) {}

  get ldapEnabled(): boolean {
    return this.deps.ldap !== null;
  }

  async passwordLogin(attempt: Attempt & { digest: string }): Promise<LoginInfo> {
    const tenantCode = await this.resolveTenant(attempt.tenantCode, attempt.account);
    await this.guard(tenantCode, attempt, 'login');
    const user = await this.deps.account.findUser(tenantCode, attempt.account);
    const matches = await this.deps.account.checkPassword(user, attempt.digest);
    if (!user || !matches) return this.fail(tenantCode, attempt, 'login');
    return this.openSession(user, attempt, 'login', loginTypes.password);
  }

  async ldapLogin(attempt: Attempt & { tenantCode: string; password: string }): Promise<LoginInfo> {
    const ldap = this.deps.ldap;
    if (!ldap) throw new AppError(codes.ldapDisabled);
    const tenant = await this.deps.account.tenant(attempt.tenantCode);
    if (!tenant) throw new AppError(codes.tenantUnknown);
    await this.guard(tenant.code, attempt, 'ldap-login');
    let result;
    try {
      result = await checkDirectoryPassword(ldap, this.deps.ldapClientFactory, attempt.account, attempt.password);
    } catch (error) {
      if (error instanceof LdapUnavailableError) throw new AppError(codes.ldapUnavailable);
      throw error;
    }
    if (result !== 'ok') return this.fail(tenant.code, attempt, 'ldap-login');
    const user = await this.deps.account.findUser(tenant.code, attempt.account);
    if (!user) {
      await this.deps.lockout.recordSuccess(tenant.code, attempt.account, attempt.clientIp);
      await this.log(tenant.code, attempt, 'ldap-login', 'no-local-account');
      throw new AppError(codes.ldapNoLocalAccount);
    }
    return this.openSession(user, attempt, 'ldap-login', loginTypes.ldap);
  }

  /** The tenant of a sign-in: the named one, or the account's only one (the default for unknown accounts). */
  private async resolveTenant(tenantCode: string | undefined, account: string): Promise<string> {
    if (tenantCode !== undefined) {
      const tenant = await this.deps.account.tenant(tenantCode);
      if (!tenant) throw new AppError(codes.tenantUnknown);
      return tenant.code;
    }
    const tenants = await this.deps.account.tenantsOfAccount(account);
    if (tenants.length > 1) throw new AppError(codes.tenantRequired);
    const only = tenants[0] ?? (await this.deps.account.defaultTenant());
    if (!only) throw new AppError(codes.tenantUnknown);
    return only.code;
  }

  private async guard(tenantCode: string, attempt: Attempt, action: OperationAction): Promise<void> {
    const state = await this.deps.lockout.state(tenantCode, attempt.account, attempt.clientIp);
    if (state.throttledUntil !== null) throw throttledError(state.throttledUntil - this.deps.now());
    if (this.deps.imageCode || state.captchaRequired) {
      const key = attempt.verifyModel?.verifyKey;
      const answer = attempt.verifyModel?.imageVerifyCode;
      if (!key || !answer) {
        const data: LoginFailureData = { captchaRequired: true };
        throw new AppError(codes.captchaRequired, { data });
      }
      const check = await this.deps.captcha.check(key, answer);
      if (check === 'expired') throw new AppError(codes.captchaExpired, { data: { captchaRequired: true } });
      if (check === 'wrong') throw new AppError(codes.captchaWrong, { data: { captchaRequired: true } });
    }
    if (state.lockedUntil !== null) {
      await this.log(tenantCode, attempt, action, 'locked');
      throw lockedError(state.lockedUntil);
    }
  }

  /** A sign-in with wrong credentials: counted toward the lock-out, logged, answered with the failure. */
  async fail(tenantCode: string, attempt: Attempt, action: SignInAction): Promise<never> {
    const outcome = await this.deps.lockout.recordFailure(tenantCode, attempt.account, attempt.clientIp);
    await this.log(tenantCode, attempt, action, 'failure');
    countSignIn(signInKinds[action], false);
    if (outcome.lockedUntil !== null) {
      if (outcome.lockedNow) countLockout('account');
      if (outcome.lockedNow) await this.log(tenantCode, attempt, 'lock', 'locked', `until ${new Date(outcome.lockedUntil).toISOString()}`);
      throw lockedError(outcome.lockedUntil);
    }
    const data: LoginFailureData = { captchaRequired: outcome.captchaRequired, remainingAttempts: outcome.remainingAttempts };
    throw new AppError(codes.accountOrPasswordWrong, { data });
  }

  /**
   * Opens a session for credentials already checked (password, directory or card): refuses a disabled user and a
   * user without any sub-system, clears the failures, applies the forced-change rule (not to card sign-ins: the
   * card password is the administrator's own, set when the card was issued; nor to third-party sign-ins, spec §4)
   * and logs the sign-in.
   */
  async openSession(user: UserRow, attempt: Attempt, action: SignInAction, loginType: LoginType, cardId: string | null = null): Promise<LoginInfo> {
    if (user.is_disabled === 1) {
      await this.log(user.tenant_code, attempt, action, 'disabled');
      throw new AppError(codes.accountDisabled);
    }
    await this.deps.lockout.recordSuccess(user.tenant_code, attempt.account, attempt.clientIp);
    // spec §4 step 4: a user without any sub-system gets no session at all (the shell would only drop it)
    if ((await this.deps.menu.permissions({ userId: user.id, stamps: null })).length === 0) {
      await this.log(user.tenant_code, attempt, action, 'refused', 'no-subsystem');
      throw new AppError(codes.noSubsystem);
    }
    // the licence part of the forced-change rule is applied per request (route-rules.ts): the licence may change
    const forced = loginType === loginTypes.card ? null : decideForcedChange({ oprtPwdEditReason: user.pwd_edit_reason, lockingTime: user.pwd_locking_time, thirdParty: loginType === loginTypes.thirdParty, licenceNormal: true });
    const token = await this.deps.sessions.create({ id: user.id, tenantCode: user.tenant_code, account: user.account }, loginType, forced?.forced ?? false, cardId);
    await this.log(user.tenant_code, attempt, action, 'success');
    countSignIn(signInKinds[action], true);
    return { token, tenantCode: user.tenant_code };
  }

  private log(tenantCode: string, attempt: Attempt, action: OperationAction, result: OperationResult, detail?: string) {
    return this.deps.logs.record({ tenantCode, account: attempt.account, action, result, clientIp: attempt.clientIp, detail });
  }

  async logout(session: { tokenHash: string; tenantCode: string; account: string }, clientIp: string): Promise<void> {
    await this.deps.sessions.revoke(session.tokenHash);
    await this.deps.logs.record({ tenantCode: session.tenantCode, account: session.account, action: 'logout', result: 'success', clientIp });
  }
}
