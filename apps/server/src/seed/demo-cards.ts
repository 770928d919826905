import { adminCardKind } from '@campus/card-crypto';
import { cardStates } from '@campus/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { newId } from '../lib/hash.ts';
import { AccountRepository } from '../modules/account/account-repository.ts';
import { AdminLoginCardRepository } from '../modules/admin-login-card/admin-login-card-repository.ts';
import { holderHasCard } from '../modules/admin-login-card/card-holder.ts';
import { SystemKeyCardRepository } from '../modules/system-key-card/system-key-card-repository.ts';

/**
 * The gate demo's card history (issue 14: "the demo seeds a handful of cards"), added when a demo installation is
 * initialised: earlier cards of `sysadmin` in every state but "in use", and an old damaged key card,
 * so the card management tables have rows to filter and act on. They were never written to a card: the cards the
 * operator issues in the set-up (and after) are the only ones on the virtual reader.
 */
export async function seedDemoCards(db: Kysely<DB>, now: number): Promise<void> {
  const holder = await new AccountRepository(db).user('1001', 'sysadmin');
  if (!holder || holder.is_system_admin !== 1) return;
  const cards = new AdminLoginCardRepository(db);
  const history: [fixedNo: string, state: number, daysAgo: number][] = [
    ['DC000001', cardStates.damaged, 400],
    ['DC000002', cardStates.recycled, 300],
    ['DC000003', cardStates.lost, 200],
    ['DC000004', cardStates.frozen, 100],
  ];
  for (const [fixedNo, state, daysAgo] of history) {
    if (await cards.byFixedNo(fixedNo)) continue;
    const at = now - daysAgo * 86_400_000;
    await cards.insertIssued({
      id: newId(),
      tenant_code: holder.tenant_code,
      user_id: holder.id,
      oprt_no: holder.account,
      kind_num: adminCardKind,
      fixed_no: fixedNo,
      card_num: await cards.nextCardNum(),
      state,
      issue_seq: 1,
      // never written to a card: no password opens it
      pwd_hash: '!',
      is_super_admin: 0,
      created_at: at,
      updated_at: at,
    }, { holderHasCard: () => holderHasCard(holder.account), cardTaken: () => new Error(`demo card ${fixedNo} is taken`) });
  }
  const keyCards = new SystemKeyCardRepository(db);
  if (!(await keyCards.byFixedNo('DC0000A1'))) {
    const at = now - 500 * 86_400_000;
    await keyCards.insertIssued({ id: newId(), kind_num: adminCardKind, fixed_no: 'DC0000A1', state: cardStates.damaged, issue_seq: 1, created_at: at, updated_at: at });
  }
}
