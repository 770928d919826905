import type { Kysely } from 'kysely';
import { codes } from '@campus/contracts';
import type { CardRecycleConfirm } from '@campus/contracts';
import type { DB } from '../../db/schema.ts';
import { AppError } from '../../http/envelope.ts';
import { countedCardOperation } from '../../lib/metrics.ts';
import { PreparedCardWrites } from './prepared-card-writes.ts';
import type { CardWritePurpose } from './prepared-card-writes.ts';

/**
 * What the services and lifecycles of the two card tables (administrator login cards, system key cards) are built
 * on: the table's repository and the prepared writes over the deps' database (which cards of either table are
 * issued: IssuedCards).
 */
export abstract class CardTableService<Repo, Deps extends { db: Kysely<DB>; now: () => number }> {
  protected readonly repo: Repo;
  protected readonly prepared: PreparedCardWrites;

  constructor(
    protected readonly deps: Deps,
    private readonly repoOver: (db: Kysely<DB>) => Repo,
  ) {
    this.repo = repoOver(deps.db);
    this.prepared = new PreparedCardWrites(deps.db, deps.now);
  }

  /**
   * Recycle, phase two, counted as `operation`: in one transaction the prepared recycle of this very card is taken,
   * the card found again (`find`, over the transaction's repository) and `record` told what the reader did; a
   * refusal anywhere rolls it all back, and the prepared recycle stays for the confirm sent again.
   */
  protected confirmRecycleOf<Card>(
    operation: string,
    purpose: CardWritePurpose,
    confirm: CardRecycleConfirm,
    find: (repo: Repo, id: string) => Promise<Card | undefined>,
    record: (trx: Kysely<DB>, repo: Repo, card: Card) => Promise<void>,
  ): Promise<void> {
    return countedCardOperation(operation, () =>
      this.deps.db.transaction().execute(async (trx) => {
        const repo = this.repoOver(trx);
        const card = await takePreparedRecycle(trx, purpose, confirm, this.deps.now(), (id) => find(repo, id));
        await record(trx, repo, card);
      }),
    );
  }
}

/**
 * Recycle, phase two, as both tables begin it in the confirm's transaction: the prepared recycle is taken (once
 * only), it must be the one of this very card, and the card must still be there (`find`); cardWriteUnknown else.
 */
async function takePreparedRecycle<Card>(trx: Kysely<DB>, purpose: CardWritePurpose, confirm: CardRecycleConfirm, now: number, find: (id: string) => Promise<Card | undefined>): Promise<Card> {
  const write = await PreparedCardWrites.take<{ cardId: string }>(trx, purpose, confirm.prepareId, now);
  if (write.payload.cardId !== confirm.id) throw new AppError(codes.cardWriteUnknown);
  const card = await find(confirm.id);
  if (!card) throw new AppError(codes.cardWriteUnknown);
  return card;
}
