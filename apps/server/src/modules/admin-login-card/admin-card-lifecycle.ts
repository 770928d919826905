import { countedCardOperation } from '../../lib/metrics.ts';
import { adminCardKind, blankImage, buildAdminCard } from '@campus/card-crypto';
import { cardStates, codes, mayRecycle } from '@campus/contracts';
import type { AdminCardIssueRequest, AdminCardRewriteRequest, CardRecycleConfirm, CardRecycleData, CardWriteConfirm, LanguageCode, PreparedCardWrite } from '@campus/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { AppError } from '../../http/envelope.ts';
import { pauseAt } from '../../lib/pause-points.ts';
import { newId } from '../../lib/hash.ts';
import type { UserRow } from '../account/account-repository.ts';
import { openSealedPassword, requirePasswordPolicy } from '../account/new-password.ts';
import { hashDigest } from '../account/password.ts';
import { fixedNoOf } from '../card-primitives/card-input.ts';
import { actionNotAllowed, issuedStates, mayIssueOnto, requireInUse } from '../card-primitives/card-states.ts';
import type { CardActor } from '../card-primitives/card-states.ts';
import { PreparedCardWrites } from '../card-primitives/prepared-card-writes.ts';
import type { AdminLoginCardDeps } from './admin-login-card-deps.ts';
import { AdminLoginCardRepository } from './admin-login-card-repository.ts';
import { holderHasCard, holderName } from './card-holder.ts';
import { refuseLastCardInUse } from './last-card-in-use.ts';
import { CardTableService } from '../card-primitives/card-table-service.ts';

/** What an issue keeps until its confirm. */
export interface AdminCardIssuePayload {
  userId: string;
  tenantCode: string;
  oprtNo: string;
  cardNum: number;
  issueSeq: number;
  pwdHash: string;
  isSuperAdmin: boolean;
  /** The holder's name when the write was prepared (for the refusal that names him). */
  holderName?: string;
}

interface RewritePayload {
  cardId: string;
  fromSeq: number;
  issueSeq: number;
}

interface RecyclePayload {
  cardId: string;
}

type IssueRequest = Pick<AdminCardIssueRequest, 'fixedNo' | 'oprtPwd' | 'sealedPwd'>;

/**
 * Phase one of issuing an administrator login card onto a blank card, for the super administrator's set-up card
 * and for card management alike: the card number is free (new, or recycled), the card password keeps the policy.
 */
export async function prepareAdminCardIssue(deps: AdminLoginCardDeps, user: UserRow, request: IssueRequest, language: LanguageCode): Promise<{ fixedNo: string; image: Buffer; payload: AdminCardIssuePayload }> {
  const fixedNo = fixedNoOf(request.fixedNo);
  const { key, installation } = await deps.gm.systemKey();
  const repo = new AdminLoginCardRepository(deps.db);
  const existing = await repo.byFixedNo(fixedNo);
  if (!mayIssueOnto(existing?.state) || (await deps.issued.heldByKeyCard(fixedNo))) throw new AppError(codes.cardAlreadyRegistered);
  const password = await openSealedPassword(deps.seal, deps.account.deploymentDigestMode, { sealed: request.sealedPwd, digest: request.oprtPwd, sealedField: 'sealedPwd', digestField: 'oprtPwd' });
  requirePasswordPolicy(password, language);
  const superAdmin = await deps.account.superAdmin();
  const payload: AdminCardIssuePayload = {
    userId: user.id,
    tenantCode: user.tenant_code,
    oprtNo: user.account,
    cardNum: await repo.nextCardNum(),
    issueSeq: (existing?.issue_seq ?? 0) + 1,
    pwdHash: await hashDigest(request.oprtPwd),
    isSuperAdmin: superAdmin?.id === user.id,
    holderName: user.name,
  };
  const image = buildAdminCard({ systemKey: key, fixedNo, customerNo: installation.customer_no, issueSeq: payload.issueSeq, oprtNo: payload.oprtNo, cardNum: payload.cardNum, tenantCode: payload.tenantCode });
  return { fixedNo, image, payload };
}

/**
 * Records an issued card in the confirm's transaction, while its number may still be issued onto and its holder
 * still has no card in use (of two administrators issuing at once, the second confirm is refused). The card gets a
 * row of its own, issued now: a recycled card issued again keeps its earlier rows as its history.
 */
export async function recordAdminCardIssue(repo: AdminLoginCardRepository, fixedNo: string, p: AdminCardIssuePayload, now: number): Promise<void> {
  const cardTaken = () => new AppError(codes.cardAlreadyRegistered);
  const holderHasOne = () => holderHasCard(holderName(p.holderName, p.oprtNo));
  if (!mayIssueOnto((await repo.byFixedNo(fixedNo))?.state)) throw cardTaken();
  if ((await repo.ofUser(p.userId)).some((card) => card.state === cardStates.inUse)) throw holderHasOne();
  await repo.insertIssued(
    {
      id: newId(),
      tenant_code: p.tenantCode,
      user_id: p.userId,
      oprt_no: p.oprtNo,
      kind_num: adminCardKind,
      fixed_no: fixedNo,
      card_num: p.cardNum,
      state: cardStates.inUse,
      issue_seq: p.issueSeq,
      pwd_hash: p.pwdHash,
      is_super_admin: p.isSuperAdmin ? 1 : 0,
      created_at: now,
      updated_at: now,
    },
    { holderHasCard: holderHasOne, cardTaken },
  );
  await pauseAt('adminCard.issue');
}

/**
 * Card management's writes of administrator login cards (spec §7 SystemAdminLoginCard GetCardIssueData / Issue,
 * ReWrite, GetCardRecycleData / Recycle), each two-phase: the server prepares, the issuer writes, the shell
 * confirms once. Everything acts inside the actor's tenant.
 */
export class AdminCardLifecycle extends CardTableService<AdminLoginCardRepository, AdminLoginCardDeps> {
  constructor(deps: AdminLoginCardDeps) {
    super(deps, (db) => new AdminLoginCardRepository(db));
  }

  /** An enabled system administrator of the actor's tenant: who may hold an administrator login card. */
  private async holder(actor: CardActor, oprtId: string): Promise<UserRow> {
    const user = await this.deps.account.userById(oprtId);
    if (!user || user.tenant_code !== actor.tenantCode || user.is_system_admin !== 1 || user.is_disabled === 1) throw new AppError(codes.operatorCannotHoldCard);
    return user;
  }

  private async cardOf(actor: CardActor, id: string) {
    const [card] = await this.repo.byIds([id], actor.tenantCode);
    if (!card) throw new AppError(codes.notFound);
    return card;
  }

  /** IsCanIssueCard: an enabled system administrator of the tenant who holds no card in use. */
  async canIssue(actor: CardActor, oprtId: string): Promise<boolean> {
    try {
      await this.holder(actor, oprtId);
    } catch {
      return false;
    }
    return !(await this.repo.ofUser(oprtId)).some((card) => card.state === cardStates.inUse);
  }

  /** GetCardIssueData: phase one of issuing a card to a system administrator of the tenant. */
  async prepareIssue(actor: CardActor, request: AdminCardIssueRequest, language: LanguageCode): Promise<PreparedCardWrite> {
    const user = await this.holder(actor, request.oprtId);
    if ((await this.repo.ofUser(user.id)).some((card) => card.state === cardStates.inUse)) throw holderHasCard(holderName(user.name, user.account));
    const { fixedNo, image, payload } = await prepareAdminCardIssue(this.deps, user, request, language);
    const prepareId = await this.prepared.prepare('adminCardIssue', fixedNo, image, payload);
    return { prepareId, fixedNo, image: image.toString('hex'), alreadyWritten: false };
  }

  /** ReWrite: the card in use written again under a new issue number, so that every copy of it stops signing in. */
  async prepareRewrite(actor: CardActor, request: AdminCardRewriteRequest): Promise<PreparedCardWrite> {
    const card = await this.cardOf(actor, request.id);
    requireInUse(card.state);
    const onReader = fixedNoOf(request.fixedNo);
    if (onReader !== card.fixed_no) throw new AppError(codes.notTheSelectedCard, { values: { fixedNo: onReader } });
    const { key, installation } = await this.deps.gm.systemKey();
    const payload: RewritePayload = { cardId: card.id, fromSeq: card.issue_seq, issueSeq: card.issue_seq + 1 };
    const image = buildAdminCard({ systemKey: key, fixedNo: card.fixed_no, customerNo: installation.customer_no, issueSeq: payload.issueSeq, oprtNo: card.oprt_no, cardNum: card.card_num, tenantCode: card.tenant_code });
    const prepareId = await this.prepared.prepare('adminCardRewrite', card.fixed_no, image, payload);
    return { prepareId, fixedNo: card.fixed_no, image: image.toString('hex'), alreadyWritten: false };
  }

  /**
   * Issue: phase two of an issue or a rewrite. A rewrite ends the sessions the card's older image opened. The card, its
   * sessions and the log entry change in one transaction; until it commits the prepared write stays, so a confirm
   * the server did not finish (it stopped, the database went away) is sent again with the same prepareId.
   */
  async confirmWrite(actor: CardActor, confirm: CardWriteConfirm, clientIp: string): Promise<void> {
    return countedCardOperation('admin-card-write', () => this.confirmWriteUncounted(actor, confirm, clientIp));
  }

  private async confirmWriteUncounted(actor: CardActor, confirm: CardWriteConfirm, clientIp: string): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const done = await this.recordWrite(trx, actor, confirm);
      await this.log(trx, actor, done.action, confirm.isSuccess, done.detail, clientIp);
    });
  }

  /** The card an issue or a rewrite wrote, in the confirm's transaction. */
  private async recordWrite(trx: Kysely<DB>, actor: CardActor, confirm: CardWriteConfirm): Promise<{ action: 'card-issue' | 'card-rewrite'; detail: string }> {
    const write = await PreparedCardWrites.take<AdminCardIssuePayload | RewritePayload>(trx, ['adminCardIssue', 'adminCardRewrite'], confirm.prepareId, this.deps.now());
    const repo = new AdminLoginCardRepository(trx);
    if (write.purpose === 'adminCardIssue') {
      const p = write.payload as AdminCardIssuePayload;
      if (p.tenantCode !== actor.tenantCode) throw new AppError(codes.cardWriteUnknown);
      if (confirm.isSuccess) await recordAdminCardIssue(repo, write.fixedNo, p, this.deps.now());
      return { action: 'card-issue' as const, detail: `administrator card ${write.fixedNo} of ${p.oprtNo}` };
    }
    const p = write.payload as RewritePayload;
    const [card] = await repo.byIds([p.cardId], actor.tenantCode);
    if (!card) throw new AppError(codes.cardWriteUnknown);
    if (confirm.isSuccess) {
      // the card now holds the new issue number: record it even if its state changed meanwhile
      if (!(await repo.rewrite(p.cardId, p.fromSeq, p.issueSeq, undefined, this.deps.now()))) throw new AppError(codes.cardWriteUnknown);
      await this.deps.sessions.over(trx).revokeAllOfCard(p.cardId);
    }
    return { action: 'card-rewrite' as const, detail: `administrator card ${card.fixed_no} of ${card.oprt_no}` };
  }

  /**
   * GetCardRecycleData: phase one of blanking a card in use or frozen (a lost card is found again first). The tenant's
   * last card in use is refused here, before the reader blanks it; once prepared, the card no longer counts as in use
   * for the next recycle or damage (the check and the prepare are one transaction).
   */
  async prepareRecycle(actor: CardActor, id: string, language: LanguageCode): Promise<CardRecycleData> {
    const card = await this.cardOf(actor, id);
    if (!mayRecycle(card.state)) throw actionNotAllowed(card.fixed_no, card.state, language);
    const payload: RecyclePayload = { cardId: card.id };
    const prepareId = await this.deps.db.transaction().execute(async (trx) => {
      await refuseLastCardInUse(trx, actor.tenantCode, card, this.deps.now());
      return new PreparedCardWrites(trx, this.deps.now).prepare('adminCardRecycle', card.fixed_no, blankImage(), payload);
    });
    return { prepareId, id: card.id, fixedNo: card.fixed_no, cardKind: card.kind_num };
  }

  /**
   * Recycle: phase two. A blanked card is recycled even if another administrator reported it lost or froze it
   * meanwhile (the card on the reader is blank: the server agrees with it); its card sessions end.
   */
  confirmRecycle(actor: CardActor, confirm: CardRecycleConfirm, clientIp: string): Promise<void> {
    const find = async (repo: AdminLoginCardRepository, id: string) => (await repo.byIds([id], actor.tenantCode))[0];
    return this.confirmRecycleOf('admin-card-recycle', 'adminCardRecycle', confirm, find, async (trx, repo, found) => {
      if (confirm.isSuccess) {
        const unknown = () => new AppError(codes.cardWriteUnknown);
        if ((await repo.transition([found.id], issuedStates, cardStates.recycled, this.deps.now(), unknown)) !== 1) throw unknown();
        await pauseAt('adminCard.recycle');
        await this.deps.sessions.over(trx).revokeAllOfCard(found.id);
      }
      await this.log(trx, actor, 'card-recycle', confirm.isSuccess, `administrator card ${found.fixed_no} of ${found.oprt_no}`, clientIp);
    });
  }

  /** The operation log entry of a confirm, written in its transaction. */
  private log(trx: Kysely<DB>, actor: CardActor, action: 'card-issue' | 'card-rewrite' | 'card-recycle', isSuccess: boolean, detail: string, clientIp: string) {
    return this.deps.logs.over(trx).record({ tenantCode: actor.tenantCode, account: actor.account, action, result: isSuccess ? 'success' : 'failure', clientIp, detail: isSuccess ? detail : `${detail}: the reader did not write it` });
  }
}
