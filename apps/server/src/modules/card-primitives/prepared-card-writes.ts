import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { codes } from '@campus/contracts';
import type { DB } from '../../db/schema.ts';
import { AppError } from '../../http/envelope.ts';
import { sha256Hex } from '../../lib/hash.ts';

export type CardWritePurpose =
  | 'systemInit'
  | 'systemKeyCard'
  | 'superAdminCard'
  | 'cardPassword'
  | 'adminCardIssue'
  | 'adminCardRewrite'
  | 'adminCardRecycle'
  | 'keyCardRecycle'
  | 'keyCardRecovery';

/** How long the issuer has to write a prepared image and the shell to confirm it. */
export const preparedWriteTtlMs = 10 * 60_000;

export interface PreparedWrite<P> {
  purpose: CardWritePurpose;
  fixedNo: string;
  imageHash: string;
  payload: P;
}

export function imageHash(image: Uint8Array): string {
  return sha256Hex(image);
}

/**
 * Phase one of a two-phase card write (DESIGN §5): the server remembers what it asked the issuer to write,
 * under a random prepareId (stored hashed), until the shell confirms it once or it expires. One pending write
 * per purpose and card: preparing again replaces the older one.
 */
export class PreparedCardWrites {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly now: () => number,
  ) {}

  async prepare(purpose: CardWritePurpose, fixedNo: string, image: Uint8Array, payload: unknown): Promise<string> {
    const prepareId = randomBytes(24).toString('base64url');
    const now = this.now();
    await this.db.deleteFrom('prepared_card_writes').where((eb) => eb.or([eb('expires_at', '<=', now), eb.and([eb('purpose', '=', purpose), eb('fixed_no', '=', fixedNo)])])).execute();
    await this.db
      .insertInto('prepared_card_writes')
      .values({ id_hash: sha256Hex(prepareId), purpose, fixed_no: fixedNo, image_hash: imageHash(image), payload: JSON.stringify(payload), expires_at: now + preparedWriteTtlMs, created_at: now })
      .execute();
    return prepareId;
  }

  /** The pending write of this purpose for the card, if any (to tell a write whose confirm was lost). */
  async pendingFor<P>(purpose: CardWritePurpose, fixedNo: string): Promise<PreparedWrite<P> | null> {
    const row = await this.db
      .selectFrom('prepared_card_writes')
      .selectAll()
      .where('purpose', '=', purpose)
      .where('fixed_no', '=', fixedNo)
      .where('expires_at', '>', this.now())
      .executeTakeFirst();
    return row ? { purpose, fixedNo: row.fixed_no, imageHash: row.image_hash, payload: JSON.parse(row.payload) as P } : null;
  }

  /** Which of these fixed numbers have a live prepared write of this purpose (a recycle under way, say). */
  async pendingFixedNos(purpose: CardWritePurpose, fixedNos: readonly string[]): Promise<Set<string>> {
    if (fixedNos.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('prepared_card_writes')
      .select('fixed_no')
      .where('purpose', '=', purpose)
      .where('fixed_no', 'in', [...fixedNos])
      .where('expires_at', '>', this.now())
      .execute();
    return new Set(rows.map((row) => row.fixed_no));
  }

  /**
   * Takes a prepared write for its confirm: once only (the row is deleted), of a purpose the confirming call is
   * for, before it expires; cardWriteUnknown otherwise. Run it in the confirm's transaction: a confirm refused
   * after it (another card, say) rolls the delete back with it.
   */
  static async take<P>(db: Kysely<DB>, purpose: CardWritePurpose | readonly CardWritePurpose[], prepareId: string, now: number): Promise<PreparedWrite<P>> {
    const purposes: readonly string[] = typeof purpose === 'string' ? [purpose] : purpose;
    const row = await db.deleteFrom('prepared_card_writes').where('id_hash', '=', sha256Hex(prepareId)).returningAll().executeTakeFirst();
    if (!row || !purposes.includes(row.purpose) || row.expires_at <= now) throw new AppError(codes.cardWriteUnknown);
    return { purpose: row.purpose as CardWritePurpose, fixedNo: row.fixed_no, imageHash: row.image_hash, payload: JSON.parse(row.payload) as P };
  }
}
