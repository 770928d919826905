import { countedCardOperation } from '../../lib/metrics.ts';
import { adminCardKind, buildSystemKeyCard, CardTrustError, openSystemKeyCard, trimImage } from '@campus/card-crypto';
import { cardStateRules, codes } from '@campus/contracts';
import type { CardSearchRequest, CardStateAction, LanguageCode, SystemKeyCardRow } from '@campus/contracts';
import type { CardWriteConfirm, PreparedCardWrite } from '@campus/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { AppError } from '../../http/envelope.ts';
import { newId } from '../../lib/hash.ts';
import { fixedNoOf, hexBytes } from '../card-primitives/card-input.ts';
import { actionNotAllowed, cardStates, mayIssueOnto, requireInUse } from '../card-primitives/card-states.ts';
import type { CardActor } from '../card-primitives/card-states.ts';
import { PreparedCardWrites } from '../card-primitives/prepared-card-writes.ts';
import type { GmAccountService } from '../gm-account/gm-account-service.ts';
import type { OperationLogService } from '../operation-log/operation-log-service.ts';
import { keyCardLogEntry } from './key-card-log.ts';
import { keyCardInUse, SystemKeyCardRepository } from './system-key-card-repository.ts';
import type { SystemKeyCardRow as SystemKeyCardRecord } from './system-key-card-repository.ts';
import { toCardSearch } from '../card-primitives/card-search.ts';
import { CardTableService } from '../card-primitives/card-table-service.ts';
import type { IssuedCards } from '../card-primitives/issued-cards.ts';

interface KeyCardPayload {
  issueSeq: number;
}

export interface SystemKeyCardDeps {
  db: Kysely<DB>;
  gm: Pick<GmAccountService, 'systemKey'>;
  /** Which management cards are issued, of either table (a fixed number holds one card of either kind). */
  issued: Pick<IssuedCards, 'heldByKeyCard' | 'heldByAdminCard'>;
  logs: OperationLogService;
  now: () => number;
}

/** The system key card (spec §7 /qy/api/SystemKeyCard/): issued in the set-up, proves a card issuer later. */
export class SystemKeyCardService extends CardTableService<SystemKeyCardRepository, SystemKeyCardDeps> {
  constructor(deps: SystemKeyCardDeps) {
    super(deps, (db) => new SystemKeyCardRepository(db));
  }

  /** CheckCardCanIssue: the card is new to the server (or recycled). */
  async canIssue(fixedNo: string): Promise<boolean> {
    const id = fixedNoOf(fixedNo);
    return !(await this.deps.issued.heldByKeyCard(id)) && !(await this.deps.issued.heldByAdminCard(id));
  }

  /**
   * Add, phase one: a system key card onto a blank card, while no other key card is in use (the set-up's first
   * one, or a new one after the card in use was lost, frozen, recycled or damaged).
   */
  async prepareIssue(fixedNo: string): Promise<PreparedCardWrite> {
    const id = fixedNoOf(fixedNo);
    const { key, installation } = await this.deps.gm.systemKey();
    if (await this.repo.anyInUse()) throw keyCardInUse();
    if (!(await this.canIssue(id))) throw new AppError(codes.cardAlreadyRegistered);
    const issueSeq = ((await this.repo.byFixedNo(id))?.issue_seq ?? 0) + 1;
    const image = buildSystemKeyCard({
      systemKey: key,
      fixedNo: id,
      customerNo: installation.customer_no,
      issueSeq,
      recovery: {
        sealedSystemKey: Buffer.from(installation.customer_sealed_key, 'hex'),
        cardSalt: Buffer.from(installation.mother_card_salt, 'hex'),
        motherFixedNo: installation.mother_fixed_no,
        derivation: installation.customer_key_derivation,
      },
    });
    const payload: KeyCardPayload = { issueSeq };
    const prepareId = await this.prepared.prepare('systemKeyCard', id, image, payload);
    return { prepareId, fixedNo: id, image: image.toString('hex'), alreadyWritten: false };
  }

  /** SetIssueSecretCard, phase two: the card and its log entry in one transaction (the prepared write stays until it commits). */
  async confirmIssue(actor: CardActor, confirm: CardWriteConfirm, clientIp: string): Promise<void> {
    return countedCardOperation('key-card-issue', () => this.confirmIssueUncounted(actor, confirm, clientIp));
  }

  private async confirmIssueUncounted(actor: CardActor, confirm: CardWriteConfirm, clientIp: string): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const write = await PreparedCardWrites.take<KeyCardPayload>(trx, 'systemKeyCard', confirm.prepareId, this.deps.now());
      if (!confirm.isSuccess) return this.deps.logs.over(trx).record(keyCardLogEntry(actor, 'card-issue', 'failure', clientIp, `system key card ${write.fixedNo}: the reader did not write it`));
      const repo = new SystemKeyCardRepository(trx);
      if (await repo.anyInUse()) throw keyCardInUse();
      if (!mayIssueOnto((await repo.byFixedNo(write.fixedNo))?.state)) throw new AppError(codes.cardAlreadyRegistered);
      const now = this.deps.now();
      await repo.insertIssued({ id: newId(), kind_num: adminCardKind, fixed_no: write.fixedNo, state: cardStates.inUse, issue_seq: write.payload.issueSeq, created_at: now, updated_at: now });
      await this.deps.logs.over(trx).record(keyCardLogEntry(actor, 'card-issue', 'success', clientIp, `system key card ${write.fixedNo}`));
    });
  }

  private static toRow(card: SystemKeyCardRecord): SystemKeyCardRow {
    return { id: card.id, kindNum: card.kind_num, fixedNo: card.fixed_no, state: card.state, createTime: card.created_at };
  }

  /** One page of the installation's system key cards and how many match. */
  async search(request: CardSearchRequest): Promise<{ rows: SystemKeyCardRow[]; total: number }> {
    const search = toCardSearch(request);
    const [cards, total] = await Promise.all([this.repo.page(search), this.repo.count(search)]);
    return { rows: cards.map(SystemKeyCardService.toRow), total };
  }

  /** Seek: the system key card with this fixed number (the card on the reader), or null. */
  async seek(fixedNo: string): Promise<SystemKeyCardRow | null> {
    const card = await this.repo.byFixedNo(fixedNoOf(fixedNo));
    return card ? SystemKeyCardService.toRow(card) : null;
  }

  /** Loss, unloss, freeze, unfreeze or damage of one system key card (spec §4 "Card states"). */
  async applyStateAction(actor: CardActor, action: CardStateAction, id: string, clientIp: string, language: LanguageCode): Promise<void> {
    return countedCardOperation('key-card-state', () => this.applyStateActionUncounted(actor, action, id, clientIp, language));
  }

  private async applyStateActionUncounted(actor: CardActor, action: CardStateAction, id: string, clientIp: string, language: LanguageCode): Promise<void> {
    const rule = cardStateRules[action];
    const card = await this.deps.db.transaction().execute(async (trx) => {
      const repo = new SystemKeyCardRepository(trx);
      const found = await repo.byId(id);
      if (!found) throw new AppError(codes.notFound);
      if (!rule.from.includes(found.state)) throw actionNotAllowed(found.fixed_no, found.state, language);
      if (!(await repo.transition(id, rule.from, rule.to, this.deps.now()))) {
        const now = (await repo.byId(id)) ?? found;
        throw actionNotAllowed(now.fixed_no, now.state, language);
      }
      return found;
    });
    await this.deps.logs.record(keyCardLogEntry(actor, 'card-state', 'success', clientIp, `${action} system key card ${card.fixed_no}`));
  }

  /**
   * A system key card of this installation in use, as the issuer read it: its MAC under the system key, its
   * row, its issue number (an older copy is refused) and its state.
   */
  async requireValid(fixedNo: string, imageHex: string): Promise<string> {
    const id = fixedNoOf(fixedNo);
    const { key } = await this.deps.gm.systemKey();
    let header;
    try {
      header = openSystemKeyCard(trimImage(hexBytes(imageHex, 'image')), key, id).header;
    } catch (error) {
      if (error instanceof CardTrustError) throw new AppError(codes.cardNotValid);
      throw error;
    }
    const row = await this.repo.byFixedNo(id);
    if (!row) throw new AppError(codes.cardUnknown);
    if (row.issue_seq !== header.issueSeq) throw new AppError(codes.cardOutdated);
    requireInUse(row.state);
    return id;
  }
}
