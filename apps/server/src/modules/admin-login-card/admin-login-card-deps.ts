import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { AccountService } from '../account/account-service.ts';
import type { LoginService } from '../auth/login-service.ts';
import type { GmAccountService } from '../gm-account/gm-account-service.ts';
import type { OperationLogService } from '../operation-log/operation-log-service.ts';
import type { PasswordSealService } from '../password-seal/password-seal-service.ts';
import type { LockoutService } from '../sessions/lockout-service.ts';
import type { SessionService } from '../sessions/session-service.ts';

/** What the administrator login card service and its card lifecycle receive (both import it, neither the other). */
export interface AdminLoginCardDeps {
  db: Kysely<DB>;
  gm: Pick<GmAccountService, 'systemKey'>;
  account: AccountService;
  lockout: LockoutService;
  logs: OperationLogService;
  login: Pick<LoginService, 'openSession' | 'fail'>;
  seal: PasswordSealService;
  /** Whether a fixed number is taken by another kind of card (a system key card). */
  takenByOtherCard: (fixedNo: string) => Promise<boolean>;
  /** Sessions over a transaction (a card password change ends the card's sessions with its write). */
  sessionsOver: (db: Kysely<DB>) => SessionService;
  now: () => number;
}
