import { CardTrustError, recoverSystemKey, trimImage } from '@campus/card-crypto';
import type { GmSysKeyDataRequest } from '@campus/contracts';
import { hexBytes } from '../card-primitives/card-input.ts';
import type { CustomerPasswordAttempts } from '../gm-account/customer-password-attempts.ts';
import type { GmAccountService } from '../gm-account/gm-account-service.ts';
import type { OperationLogService } from '../operation-log/operation-log-service.ts';
import { installationWide } from '../operation-log/operation-log-service.ts';
import type { SystemKeyCardService } from './system-key-card-service.ts';

export interface KeyCardIssuerTrustDeps {
  keyCards: Pick<SystemKeyCardService, 'requireValid'>;
  gm: Pick<GmAccountService, 'sysKeyDataFor' | 'upgradeCustomerSeal'>;
  /** The customer-password lock-out shared by every call that checks it. */
  attempts: CustomerPasswordAttempts;
  logs: OperationLogService;
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
    try {
      await attempts.requireUnlocked(clientIp);
    } catch (error) {
      await this.log('locked', clientIp, `system key card ${request.fixedNo}`);
      throw error;
    }
    const fixedNo = await this.deps.keyCards.requireValid(request.fixedNo, request.image);
    let systemKey: Buffer;
    try {
      systemKey = recoverSystemKey(trimImage(hexBytes(request.image, 'image')), fixedNo, request.customerPwd);
    } catch (error) {
      if (!(error instanceof CardTrustError)) throw error;
      await this.log('failure', clientIp, `system key card ${fixedNo}: wrong customer password`);
      return attempts.wrong(clientIp);
    }
    await attempts.right(clientIp);
    await this.deps.gm.upgradeCustomerSeal(systemKey, request.customerPwd);
    return this.deps.gm.sysKeyDataFor(request, `key-card:${fixedNo}`, clientIp);
  }

  private log(result: 'failure' | 'locked', clientIp: string, detail: string) {
    return this.deps.logs.record({ tenantCode: installationWide, account: '', action: 'card-reader-trust', result, clientIp, detail });
  }
}
