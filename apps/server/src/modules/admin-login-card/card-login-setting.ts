import { cardLoginModes, codes, defaultCardLoginMode } from '@campus/contracts';
import type { CardLoginMode, CardLoginSetting } from '@campus/contracts';
import { adminCardKind } from '@campus/card-crypto';
import { AppError } from '../../http/envelope.ts';
import type { AccountService } from '../account/account-service.ts';
import type { TenantRow } from '../account/account-repository.ts';
import type { OperationLogService } from '../operation-log/operation-log-service.ts';

/**
 * The tenant's card sign-in (issue 46): the administrator card and its card password unless the tenant's system
 * administrator allows the card alone. The card's bytes can be copied (docs/cards.md), so the card alone is what a
 * tenant chooses, never what it gets by default.
 */
export function cardLoginModeOf(tenant: Pick<TenantRow, 'card_login'> | undefined): CardLoginMode {
  return cardLoginModes.find((mode) => mode === tenant?.card_login) ?? defaultCardLoginMode;
}

/** GetCardLoginSetting: for the tenant named (the lowest code when none is named or known). */
export async function cardLoginSetting(account: AccountService, tenantCode: string | undefined): Promise<CardLoginSetting> {
  return { cardLogin: true, cardKind: adminCardKind, cardLoginMode: cardLoginModeOf(await account.tenantOrDefault(tenantCode)) };
}

/** Who sets it: the tenant's system administrator signed in, or an operator with the `campus` command. */
export interface CardLoginSettingActor {
  tenantCode: string;
  account: string;
  clientIp: string;
}

/** Sets the tenant's card sign-in and writes it in the tenant's operation log. */
export async function setCardLoginMode(deps: { account: AccountService; logs: OperationLogService }, actor: CardLoginSettingActor, mode: CardLoginMode): Promise<void> {
  if (!(await deps.account.setCardLoginMode(actor.tenantCode, mode))) throw new AppError(codes.tenantUnknown, { status: 404 });
  await deps.logs.record({ tenantCode: actor.tenantCode, account: actor.account, clientIp: actor.clientIp, action: 'card-login-setting', result: 'success', detail: mode });
}
