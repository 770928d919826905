import { CardTrustError, recoverSystemKey, trimImage } from '@campus/card-crypto';
import { codes } from '@campus/contracts';
import type { GmSysKeyDataRequest } from '@campus/contracts';
import { AppError } from '../../http/envelope.ts';
import { hexBytes } from '../card-primitives/card-input.ts';
import { formatLockTime } from '../sessions/lockout-errors.ts';
import type { LockoutService } from '../sessions/lockout-service.ts';
import type { GmAccountService } from '../gm-account/gm-account-service.ts';
import type { OperationLogService } from '../operation-log/operation-log-service.ts';
import { installationWide } from '../operation-log/operation-log-service.ts';
import type { SystemKeyCardService } from './system-key-card-service.ts';

/**
 * The customer-password attempts of GetGMSysKeyData are counted as the sign-ins of one installation-wide account:
 * five wrong ones from an address lock that address out for 1, then 5, then 15 minutes, and twenty from three
 * addresses lock everyone out for 15 minutes (lockout-service.ts), on every server node alike.
 */
export const keyCardAttemptsAccount = 'system-key-card';

export interface KeyCardIssuerTrustDeps {
  keyCards: Pick<SystemKeyCardService, 'requireValid'>;
  gm: Pick<GmAccountService, 'sysKeyDataFor'>;
  attempts: Pick<LockoutService, 'state' | 'recordFailure' | 'recordSuccess'>;
  logs: OperationLogService;
}

function lockedError(until: number): AppError {
  return new AppError(codes.keyCardTrustLocked, 200, { lockingTime: until }, { time: formatLockTime(until) });
}

/**
 * GetGMSysKeyData: a card issuer the server does not trust yet (a new operator PC, or one whose trust was never made)
 * is trusted with the system key by the system key card on its reader *and* the customer password.
 *
 * Why the customer password and not a signed-in administrator: this is how an operator PC becomes usable for card
 * sign-in, before anybody can be signed in on it. The key card is a memory card whose bytes anyone holding it can
 * copy, so its image proves only that someone saw the card; the customer password is the secret its copy does not
 * carry, and the card itself needs it to give up the key (the key card holds the system key sealed under it).
 */
export class KeyCardIssuerTrust {
  constructor(private readonly deps: KeyCardIssuerTrustDeps) {}

  async sysKeyDataFor(request: GmSysKeyDataRequest, clientIp: string): Promise<string> {
    const { attempts } = this.deps;
    const lock = await attempts.state(installationWide, keyCardAttemptsAccount, clientIp);
    if (lock.lockedUntil !== null) {
      await this.log('locked', clientIp, `system key card ${request.fixedNo}`);
      throw lockedError(lock.lockedUntil);
    }
    const fixedNo = await this.deps.keyCards.requireValid(request.fixedNo, request.image);
    try {
      recoverSystemKey(trimImage(hexBytes(request.image, 'image')), fixedNo, request.customerPwd);
    } catch (error) {
      if (!(error instanceof CardTrustError)) throw error;
      const outcome = await attempts.recordFailure(installationWide, keyCardAttemptsAccount, clientIp);
      await this.log('failure', clientIp, `system key card ${fixedNo}: wrong customer password`);
      if (outcome.lockedUntil !== null) throw lockedError(outcome.lockedUntil);
      throw new AppError(codes.customerPasswordWrong, 200, { remainingAttempts: outcome.remainingAttempts });
    }
    await attempts.recordSuccess(installationWide, keyCardAttemptsAccount, clientIp);
    return this.deps.gm.sysKeyDataFor(request.devicePublicKey, `key-card:${fixedNo}`, clientIp);
  }

  private log(result: 'failure' | 'locked', clientIp: string, detail: string) {
    return this.deps.logs.record({ tenantCode: installationWide, account: '', action: 'card-reader-trust', result, clientIp, detail });
  }
}
