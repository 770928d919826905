import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { issuedStates, mayIssueOnto } from './card-states.ts';

/** The two tables of management cards: system key cards and administrator login cards. */
type CardTable = 'system_key_cards' | 'admin_login_cards';

/**
 * What the gate set-up, the system key cards and the administrator login cards ask of the management cards issued,
 * each of the other's table as well as its own: below all three, so none of them needs another to answer it.
 */
export class IssuedCards {
  constructor(private readonly db: Kysely<DB>) {}

  /** The state of the card a fixed number holds now in `table`: its latest issue (a recycled card keeps a row per issue). */
  private async latestState(table: CardTable, fixedNo: string): Promise<number | undefined> {
    const row = await this.db.selectFrom(table).select('state').where('fixed_no', '=', fixedNo).orderBy('issue_seq', 'desc').orderBy('created_at', 'desc').limit(1).executeTakeFirst();
    return row?.state;
  }

  /** Whether a fixed number holds, or held, a system key card that is not recycled. */
  async heldByKeyCard(fixedNo: string): Promise<boolean> {
    return !mayIssueOnto(await this.latestState('system_key_cards', fixedNo));
  }

  /** Whether a fixed number holds, or held, an administrator login card that is not recycled. */
  async heldByAdminCard(fixedNo: string): Promise<boolean> {
    return !mayIssueOnto(await this.latestState('admin_login_cards', fixedNo));
  }

  /** Whether a system key card is out as issued (in use, lost or frozen). */
  async anyKeyCardIssued(): Promise<boolean> {
    const row = await this.db.selectFrom('system_key_cards').select('id').where('state', 'in', [...issuedStates]).executeTakeFirst();
    return row !== undefined;
  }

  /** Whether a super administrator's login card is out as issued (in use, lost or frozen). */
  async anySuperAdminCardIssued(): Promise<boolean> {
    const row = await this.db.selectFrom('admin_login_cards').select('id').where('is_super_admin', '=', 1).where('state', 'in', [...issuedStates]).executeTakeFirst();
    return row !== undefined;
  }
}
