import { codes } from '@campus/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { AppError } from '../../http/envelope.ts';
import { cardStates } from '../card-primitives/card-states.ts';
import { PreparedCardWrites } from '../card-primitives/prepared-card-writes.ts';
import { AdminLoginCardRepository } from './admin-login-card-repository.ts';

/**
 * Recycling or reporting damaged an administrator card in use takes it out of use for good. The tenant's last card
 * in use is refused (lastAdminCardInUse): without one nobody can sign in with a card, and the default tenant's
 * installation goes back into set-up. A card with a recycle prepared (being blanked on a reader now) no longer
 * counts as in use. Run it in the transaction of the change it allows: it locks the tenant's cards in use, so of
 * two administrators acting at once on the last two cards, the second sees the first's change and is refused.
 */
export async function refuseLastCardInUse(trx: Kysely<DB>, tenantCode: string, card: { id: string; fixed_no: string; state: number }, now: number): Promise<void> {
  if (card.state !== cardStates.inUse) return;
  const others = (await new AdminLoginCardRepository(trx).inUseOfTenantLocked(tenantCode)).filter((one) => one.id !== card.id);
  const beingRecycled = await new PreparedCardWrites(trx, () => now).pendingFixedNos('adminCardRecycle', others.map((one) => one.fixed_no));
  if (others.some((one) => !beingRecycled.has(one.fixed_no))) return;
  throw new AppError(codes.lastAdminCardInUse, { values: { fixedNo: card.fixed_no } });
}
