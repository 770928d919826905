import { countedCardOperation } from '../../lib/metrics.ts';
import { blankImage, CardTrustError, readHeader, recoverSystemKey, trimImage } from '@campus/card-crypto';
import { adminCardOfferedForRecovery, cardStates, codes, mayRecycle } from '@campus/contracts';
import type { CardRecoveryCheck, CardRecycleConfirm, CardRecycleData, GateSetupState, LanguageCode, SystemKeyRecoveryConfirm } from '@campus/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { AppError, InvalidRequest } from '../../http/envelope.ts';
import { fixedNoOf, hexBytes } from '../card-primitives/card-input.ts';
import { actionNotAllowed, issuedStates } from '../card-primitives/card-states.ts';
import type { CardActor } from '../card-primitives/card-states.ts';
import { PreparedCardWrites } from '../card-primitives/prepared-card-writes.ts';
import type { CustomerPasswordAttempts } from '../gm-account/customer-password-attempts.ts';
import type { GmAccountService } from '../gm-account/gm-account-service.ts';
import type { SystemKeyCardDeps } from './system-key-card-service.ts';
import { keyCardLogEntry } from './key-card-log.ts';
import { SystemKeyCardRepository } from './system-key-card-repository.ts';
import { CardTableService } from '../card-primitives/card-table-service.ts';

export interface KeyCardLifecycleDeps extends SystemKeyCardDeps {
  gm: Pick<GmAccountService, 'systemKey' | 'installation' | 'restoreSystemKey' | 'state' | 'upgradeCustomerSeal'>;
  /** The customer-password lock-out shared by every call that checks it. */
  attempts: CustomerPasswordAttempts;
}

interface KeyCardRef {
  cardId: string;
}

/**
 * Card management's reader steps on system key cards (spec §7 SystemKeyCard GetCardRecycleData / Recycle,
 * CheckCardCanRecovery / RecoverySystemKey), two-phase like every card write: the server prepares, the issuer
 * acts on the card, the shell confirms once.
 */
export class KeyCardLifecycle extends CardTableService<SystemKeyCardRepository, KeyCardLifecycleDeps> {
  constructor(deps: KeyCardLifecycleDeps) {
    super(deps, (db) => new SystemKeyCardRepository(db));
  }

  /** GetCardRecycleData: phase one of blanking a key card in use or frozen. */
  async prepareRecycle(id: string, language: LanguageCode): Promise<CardRecycleData> {
    const card = await this.repo.byId(id);
    if (!card) throw new AppError(codes.notFound);
    if (!mayRecycle(card.state)) throw actionNotAllowed(card.fixed_no, card.state, language);
    const payload: KeyCardRef = { cardId: card.id };
    const prepareId = await this.prepared.prepare('keyCardRecycle', card.fixed_no, blankImage(), payload);
    return { prepareId, id: card.id, fixedNo: card.fixed_no, cardKind: card.kind_num };
  }

  /** Recycle: phase two; a blanked key card is recycled even if its state changed meanwhile (the card is blank). */
  confirmRecycle(actor: CardActor, confirm: CardRecycleConfirm, clientIp: string): Promise<void> {
    return this.confirmRecycleOf('key-card-recycle', 'keyCardRecycle', confirm, (repo, id) => repo.byId(id), async (trx, repo, found) => {
      if (confirm.isSuccess && !(await repo.transition(found.id, issuedStates, cardStates.recycled, this.deps.now()))) throw new AppError(codes.cardWriteUnknown);
      // the log entry in the same transaction: a recycle is never recorded without it
      await this.log(actor, 'card-recycle', confirm.isSuccess ? 'success' : 'failure', `system key card ${found.fixed_no}${confirm.isSuccess ? '' : ': the reader did not blank it'}`, clientIp, trx);
    });
  }

  /** CheckCardCanRecovery: a key card in use of this installation can restore the server's system key. */
  async checkRecovery(fixedNo: string): Promise<CardRecoveryCheck> {
    const id = fixedNoOf(fixedNo);
    await this.deps.gm.installation();
    const card = await this.repo.byFixedNo(id);
    if (!card || card.state !== cardStates.inUse) return { canRecovery: false, prepareId: null };
    const payload: KeyCardRef = { cardId: card.id };
    return { canRecovery: true, prepareId: await this.prepared.prepare('keyCardRecovery', id, Buffer.alloc(0), payload) };
  }

  /**
   * RecoverySystemKey: the key card the issuer read, opened with the customer password, must be the card that was
   * checked, of this installation (key id and MAC), at its current issue number and in use; its system key is then
   * sealed again under this server's KEK. A wrong password keeps the check open for another try, and counts in the
   * customer-password lock-out.
   */
  async confirmRecovery(actor: CardActor, confirm: SystemKeyRecoveryConfirm, clientIp: string, language: LanguageCode = 'en-US'): Promise<GateSetupState> {
    return countedCardOperation('key-card-recovery', () => this.confirmRecoveryUncounted(actor, confirm, clientIp, language));
  }

  private async confirmRecoveryUncounted(actor: CardActor, confirm: SystemKeyRecoveryConfirm, clientIp: string, language: LanguageCode = 'en-US'): Promise<GateSetupState> {
    const fixedNo = fixedNoOf(confirm.fixedNo);
    if (confirm.isSuccess) await this.deps.attempts.requireUnlocked(clientIp);
    let recovered: Buffer | null = null;
    try {
      await this.deps.db.transaction().execute(async (trx) => {
        const write = await PreparedCardWrites.take<KeyCardRef>(trx, 'keyCardRecovery', confirm.prepareId, this.deps.now());
        if (write.fixedNo !== fixedNo) throw new AppError(codes.cardWriteUnknown);
        if (!confirm.isSuccess) return;
        if (confirm.image === undefined || confirm.customerPwd === undefined) throw new InvalidRequest('body/image and body/customerPwd are required when isSuccess is true');
        const image = trimImage(hexBytes(confirm.image, 'image'));
        let key: Buffer;
        try {
          key = recoverSystemKey(image, fixedNo, confirm.customerPwd);
        } catch (error) {
          if (!(error instanceof CardTrustError)) throw error;
          // an administrator card read in place of the key card: say so, and which card is wanted
          if (readHeader(image)?.type === 'adminLogin') throw new AppError(codes.keyCardCannotRecover, { detail: adminCardOfferedForRecovery[language] });
          throw new AppError(error.reason === 'passwordWrong' ? codes.customerPasswordWrong : codes.keyCardCannotRecover);
        }
        const card = await new SystemKeyCardRepository(trx).byId(write.payload.cardId);
        if (!card || card.fixed_no !== fixedNo || card.state !== cardStates.inUse || card.issue_seq !== readHeader(image)?.issueSeq) throw new AppError(codes.keyCardCannotRecover);
        await this.deps.gm.restoreSystemKey(key, trx);
        recovered = key;
      });
    } catch (error) {
      if (error instanceof AppError && (error.code === codes.customerPasswordWrong || error.code === codes.keyCardCannotRecover)) {
        await this.log(actor, 'system-key-recovery', 'failure', `system key card ${fixedNo}: ${error.code === codes.customerPasswordWrong ? 'wrong customer password' : 'cannot recover'}`, clientIp);
        if (error.code === codes.customerPasswordWrong) await this.deps.attempts.wrong(clientIp);
      }
      throw error;
    }
    if (confirm.isSuccess) await this.deps.attempts.right(clientIp);
    if (recovered && confirm.customerPwd !== undefined) await this.deps.gm.upgradeCustomerSeal(recovered, confirm.customerPwd);
    if (confirm.isSuccess) await this.log(actor, 'system-key-recovery', 'success', `system key card ${fixedNo}`, clientIp);
    return this.deps.gm.state();
  }

  private log(actor: CardActor, action: 'card-recycle' | 'system-key-recovery', result: 'success' | 'failure', detail: string, clientIp: string, trx?: Kysely<DB>) {
    return (trx ? this.deps.logs.over(trx) : this.deps.logs).record(keyCardLogEntry(actor, action, result, clientIp, detail));
  }
}
