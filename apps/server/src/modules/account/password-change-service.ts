import { codes } from '@campus/contracts';
import type { LanguageCode } from '@campus/contracts';
import { AppError } from '../../http/envelope.ts';
import { pauseAt } from '../../lib/pause-points.ts';
import type { SessionInfo } from '../../http/types.ts';
import type { LockoutService } from '../sessions/lockout-service.ts';
import type { SessionService } from '../sessions/session-service.ts';
import type { OperationLogService } from '../operation-log/operation-log-service.ts';
import type { PasswordSealService } from '../password-seal/password-seal-service.ts';
import type { AccountService } from './account-service.ts';
import { openSealedPassword, requirePasswordPolicy } from './new-password.ts';
import { confirmOperatorPassword, refuseIfLocked } from './operator-password.ts';

/** The services a password change writes through, bound to one database transaction. */
export interface PasswordChangeWriters {
  account: AccountService;
  sessions: SessionService;
  logs: OperationLogService;
}

/** Runs `work` in one database transaction: everything it wrote is kept, or nothing is. */
export type InTransaction = <T>(work: (tx: PasswordChangeWriters) => Promise<T>) => Promise<T>;

export interface PasswordChangeDeps {
  account: AccountService;
  lockout: LockoutService;
  logs: OperationLogService;
  seal: PasswordSealService;
  inTransaction: InTransaction;
}

export interface PasswordChangeRequest {
  session: SessionInfo;
  /** Digest of the current password. */
  oprtPwd: string;
  /** Digest of the new password. */
  oprtNewPwd: string;
  /** The new password, SM2-sealed to the installation's seal key. */
  sealedNewPwd: string;
  clientIp: string;
  language: LanguageCode;
}

/**
 * ChangePassword (spec §4 forced change, §5 policy, §7). Check order: lock → the seal opens and holds
 * the password oprtNewPwd is the digest of (400 otherwise) → current password (counted like a failed
 * sign-in: a wrong one is 153, or accountLocked once the account locks) → policy (151) → not the
 * current password (152). Then, in one transaction: the new hash, the forced-change marks cleared,
 * every session of the user ended and the operation-log entry.
 */
export class PasswordChangeService {
  constructor(private readonly deps: PasswordChangeDeps) {}

  async change(request: PasswordChangeRequest): Promise<void> {
    const { account, seal } = this.deps;
    const { session, language } = request;
    const user = await account.userById(session.userId);
    if (!user) throw new AppError(codes.tokenInvalid, { status: 401 });
    const entry = { tenantCode: user.tenant_code, account: user.account, action: 'change-password' as const, clientIp: request.clientIp };

    await refuseIfLocked(this.deps, { user, clientIp: request.clientIp, action: entry.action });

    const newPassword = await openSealedPassword(seal, account.deploymentDigestMode, {
      sealed: request.sealedNewPwd,
      digest: request.oprtNewPwd,
      sealedField: 'sealedNewPwd',
      digestField: 'oprtNewPwd',
    });

    await confirmOperatorPassword(this.deps, { user, digest: request.oprtPwd, clientIp: request.clientIp, action: entry.action, wrongCode: codes.oldPasswordWrong });

    requirePasswordPolicy(newPassword, language);
    if (await account.matchesStoredHash(user, request.oprtNewPwd)) throw new AppError(codes.passwordReused);

    const newHash = await account.hashNewDigest(request.oprtNewPwd);
    await this.deps.inTransaction(async (tx) => {
      // Only while the hash is the one checked above: a change that raced this one wins, this one fails.
      if (!(await tx.account.replacePassword(user, newHash))) throw new AppError(codes.oldPasswordWrong);
      await pauseAt('password.change');
      const ended = await tx.sessions.revokeAllOfUser(user.id);
      await tx.logs.record({ ...entry, result: 'success', detail: `sessions ended: ${ended}` });
    });
  }
}
