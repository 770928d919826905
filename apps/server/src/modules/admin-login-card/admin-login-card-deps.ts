import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { AccountService } from '../account/account-service.ts';
import type { LoginService } from '../auth/login-service.ts';
import type { GmAccountService } from '../gm-account/gm-account-service.ts';
import type { OperationLogService } from '../operation-log/operation-log-service.ts';
import type { PasswordSealService } from '../password-seal/password-seal-service.ts';
import type { IssuedCards } from '../card-primitives/issued-cards.ts';
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
  /** Which management cards are issued: a fixed number held by a system key card takes no login card. */
  issued: Pick<IssuedCards, 'heldByKeyCard'>;
  /** Sessions, over a transaction where a change ends a card's sessions with its write (`sessions.over(trx)`). */
  sessions: Pick<SessionService, 'over'>;
  now: () => number;
}
