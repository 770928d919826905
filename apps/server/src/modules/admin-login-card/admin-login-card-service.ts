import { countCardOperation, countSignIn } from '../../lib/metrics.ts';
import { adminCardKind, buildAdminCard, CardTrustError, openAdminCard, trimImage } from '@campus/card-crypto';
import { cardStateRules, codes, loginTypes } from '@campus/contracts';
import type { AdminLoginCardRow as AdminLoginCardTableRow, CardSearchRequest, CardStateAction } from '@campus/contracts';
import type { CardWriteConfirm, ChangeGmPasswordPrepare, LanguageCode, LoginInfo, PreparedCardWrite, ServerCardLoginRequest, SuperAdmin, SuperAdminIssueData, SuperAdminIssueRequest } from '@campus/contracts';
import { AppError, InvalidRequest } from '../../http/envelope.ts';
import { pauseAt } from '../../lib/pause-points.ts';
import type { SessionInfo } from '../../http/types.ts';
import type { UserRow } from '../account/account-repository.ts';
import { openSealedPassword, requirePasswordPolicy } from '../account/new-password.ts';
import { confirmOperatorPassword, refuseIfLocked } from '../account/operator-password.ts';
import { hashDigest, verifyDigest } from '../account/password.ts';
import { lockedError, throttledError } from '../sessions/lockout-errors.ts';
import type { Attempt } from '../auth/login-service.ts';
import { actionNotAllowed, cardStates, requireInUse } from '../card-primitives/card-states.ts';
import type { CardActor } from '../card-primitives/card-states.ts';
import { PreparedCardWrites } from '../card-primitives/prepared-card-writes.ts';
import { prepareAdminCardIssue, recordAdminCardIssue } from './admin-card-lifecycle.ts';
import type { AdminCardIssuePayload } from './admin-card-lifecycle.ts';
import { fixedNoOf, hexBytes } from '../card-primitives/card-input.ts';
import { toCardSearch } from '../card-primitives/card-search.ts';
import { CardTableService } from '../card-primitives/card-table-service.ts';
import type { AdminLoginCardRow } from './admin-login-card-repository.ts';
import { AdminLoginCardRepository } from './admin-login-card-repository.ts';
import { holderHasCard, holderName } from './card-holder.ts';
import { cardLoginModeOf } from './card-login-setting.ts';
import { refuseLastCardInUse } from './last-card-in-use.ts';
import type { AdminLoginCardDeps } from './admin-login-card-deps.ts';

interface CardPasswordPayload {
  cardId: string;
  fromSeq: number;
  issueSeq: number;
  pwdHash: string;
}

function superAdminOf(user: UserRow): SuperAdmin {
  return { no: user.account, name: user.name, id: user.id, tenantCode: user.tenant_code };
}

/**
 * Administrator login cards (spec §7 OprtLoginCard, System, Operator and Account card calls): the super
 * administrator's card of the set-up, card sign-in (login type 3) and the card password.
 */
export class AdminLoginCardService extends CardTableService<AdminLoginCardRepository, AdminLoginCardDeps> {
  constructor(deps: AdminLoginCardDeps) {
    super(deps, (db) => new AdminLoginCardRepository(db));
  }

  private async superAdminUser(): Promise<UserRow> {
    const user = await this.deps.account.superAdmin();
    if (!user) throw new AppError(codes.superAdminMissing);
    return user;
  }

  async superAdmin(): Promise<SuperAdmin> {
    return superAdminOf(await this.superAdminUser());
  }

  async superAdminIssueData(): Promise<SuperAdminIssueData> {
    const user = await this.superAdminUser();
    const cards = await this.repo.ofUser(user.id);
    return {
      ...superAdminOf(user),
      cardKind: adminCardKind,
      cards: cards.map((c) => ({ id: c.id, fixedNo: c.fixed_no, cardNum: c.card_num, state: c.state, issueSeq: c.issue_seq })),
    };
  }

  // ---- the super administrator's card (two-phase) ----

  async prepareSuperAdmin(request: SuperAdminIssueRequest, language: LanguageCode): Promise<PreparedCardWrite> {
    const user = await this.superAdminUser();
    if (await this.repo.superAdminCardIn([cardStates.inUse])) throw new AppError(codes.setUpStepDone, { values: { step: 'super administrator card' } });
    const { fixedNo, image, payload } = await prepareAdminCardIssue(this.deps, user, request, language);
    const prepareId = await this.prepared.prepare('superAdminCard', fixedNo, image, payload);
    return { prepareId, fixedNo, image: image.toString('hex'), alreadyWritten: false };
  }

  async confirmSuperAdmin(confirm: CardWriteConfirm, clientIp: string): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const write = await PreparedCardWrites.take<AdminCardIssuePayload>(trx, 'superAdminCard', confirm.prepareId, this.deps.now());
      if (!confirm.isSuccess) return;
      const repo = new AdminLoginCardRepository(trx);
      if (await repo.superAdminCardIn([cardStates.inUse])) throw new AppError(codes.setUpStepDone, { values: { step: 'super administrator card' } });
      const issued = write.payload;
      await recordAdminCardIssue(repo, write.fixedNo, issued, this.deps.now());
      await this.deps.logs.over(trx).record({ tenantCode: issued.tenantCode, account: issued.oprtNo, action: 'card-issue', result: 'success', clientIp, detail: `super administrator card ${issued.cardNum}` });
    });
  }

  // ---- card management: the table ----

  private toRows(cards: AdminLoginCardRow[], names: Map<string, string>): AdminLoginCardTableRow[] {
    return cards.map((c) => ({ id: c.id, oprtNo: c.oprt_no, oprtName: names.get(c.user_id) ?? '', kindNum: c.kind_num, fixedNo: c.fixed_no, state: c.state, oprtId: c.user_id, num: c.card_num, createTime: c.created_at }));
  }

  /** One page of the tenant's administrator login cards and how many match. */
  async search(actor: CardActor, request: CardSearchRequest): Promise<{ rows: AdminLoginCardTableRow[]; total: number }> {
    const search = toCardSearch(request);
    const { cards, total } = await this.repo.search(actor.tenantCode, search);
    return { rows: this.toRows(cards, await this.deps.account.namesByIds(cards.map((c) => c.user_id))), total };
  }

  /** Seek: the tenant's card with this fixed number (the card on the reader), or null. */
  async seek(actor: CardActor, fixedNo: string): Promise<AdminLoginCardTableRow | null> {
    const card = await this.repo.byFixedNoInTenant(fixedNoOf(fixedNo), actor.tenantCode);
    if (!card) return null;
    return this.toRows([card], await this.deps.account.namesByIds([card.user_id]))[0] ?? null;
  }

  /** The tenant's system administrators: who may hold an administrator login card (the operator filter). */
  async systemAdmins(actor: CardActor): Promise<{ id: string; no: string; name: string }[]> {
    return (await this.deps.account.systemAdminsOf(actor.tenantCode)).map((user) => ({ id: user.id, no: user.account, name: user.name }));
  }

  // ---- card management: state actions (spec §4 "Card states") ----

  /**
   * Loss, unloss, freeze, unfreeze or damage of the tenant's administrator cards: all of them or none. A card
   * another administrator changed meanwhile is refused like one in the wrong state. Taking a card out of use
   * ends its holder's sessions in the same transaction.
   */
  async applyStateAction(actor: CardActor, action: CardStateAction, ids: readonly string[], clientIp: string, language: LanguageCode): Promise<void> {
    try {
      await this.applyStateActionUncounted(actor, action, ids, clientIp, language);
      countCardOperation(`admin-card-${action}`, 'ok');
    } catch (error) {
      countCardOperation(`admin-card-${action}`, error instanceof AppError ? 'refused' : 'failed');
      throw error;
    }
  }

  private async applyStateActionUncounted(actor: CardActor, action: CardStateAction, ids: readonly string[], clientIp: string, language: LanguageCode): Promise<void> {
    const rule = cardStateRules[action];
    const unique = [...new Set(ids)];
    if (rule.single && unique.length !== 1) throw new InvalidRequest('body/ids must name exactly one card for this action');
    // the holders' names for a refusal, read before the transaction (which holds SQLite's one connection)
    const names = await this.deps.account.namesByIds((await this.repo.byIds(unique, actor.tenantCode)).map((card) => card.user_id));
    const changed = await this.deps.db.transaction().execute(async (trx) => {
      const repo = new AdminLoginCardRepository(trx);
      const cards = await repo.byIds(unique, actor.tenantCode);
      if (cards.length !== unique.length) throw new AppError(codes.notFound);
      const wrong = cards.find((card) => !rule.from.includes(card.state));
      if (wrong) throw actionNotAllowed(wrong.fixed_no, wrong.state, language);
      if (action === 'damage') await refuseLastCardInUse(trx, actor.tenantCode, cards[0]!, this.deps.now());
      const holderOf = (card: AdminLoginCardRow) => holderName(names.get(card.user_id), card.oprt_no);
      if (rule.to === cardStates.inUse) {
        for (const card of cards) {
          if ((await repo.ofUser(card.user_id)).some((other) => other.id !== card.id && other.state === cardStates.inUse)) throw holderHasCard(holderOf(card));
        }
      }
      // a holder who got another card in use meanwhile (the unique index keeps one): the refusal names the holders
      const holdersHaveCards = () => holderHasCard([...new Set(cards.map(holderOf))].join(', '));
      if ((await repo.transition(unique, rule.from, rule.to, this.deps.now(), holdersHaveCards)) !== unique.length) {
        // another administrator changed a card meanwhile: name it as it is now (this transaction rolls back)
        const current = await repo.byIds(unique, actor.tenantCode);
        const stuck = current.find((card) => card.state !== rule.to) ?? current[0] ?? cards[0]!;
        throw actionNotAllowed(stuck.fixed_no, stuck.state, language);
      }
      if (rule.endsSessions) {
        const sessions = this.deps.sessions.over(trx);
        for (const userId of new Set(cards.map((card) => card.user_id))) await sessions.revokeAllOfUser(userId);
      }
      return cards;
    });
    for (const card of changed) {
      await this.deps.logs.record({ tenantCode: actor.tenantCode, account: actor.account, action: 'card-state', result: 'success', clientIp, detail: `${action} administrator card ${card.fixed_no} of ${card.oprt_no}` });
    }
  }

  // ---- card sign-in ----

  /**
   * Card sign-in (login type 3), the card as the issuer read it: the card opens under the system key and is
   * this installation's, its row's issue number and operator match, it is in use, the account is not locked,
   * the card password comes with it unless the tenant allows the card alone, and the card password is right
   * (failures count as failed sign-ins).
   */
  async cardLogin(request: ServerCardLoginRequest, clientIp: string): Promise<LoginInfo> {
    const fixedNo = fixedNoOf(request.fixedNo);
    const { key } = await this.deps.gm.systemKey();
    const anonymous: Attempt = { account: request.oprtNo ?? '', clientIp };
    let fields;
    try {
      fields = openAdminCard(trimImage(hexBytes(request.image, 'image')), key, fixedNo);
    } catch (error) {
      if (!(error instanceof CardTrustError)) throw error;
      await this.refuse('', anonymous, 'failure', `card ${fixedNo} not valid`);
      throw new AppError(codes.cardNotValid);
    }
    const attempt: Attempt = { account: fields.oprtNo, tenantCode: fields.tenantCode, clientIp };
    const row = await this.repo.byFixedNo(fixedNo);
    if (!row || row.oprt_no !== fields.oprtNo || row.tenant_code !== fields.tenantCode) {
      await this.refuse(fields.tenantCode, attempt, 'failure', `card ${fixedNo} unknown`);
      throw new AppError(codes.cardUnknown);
    }
    if (row.issue_seq !== fields.header.issueSeq) {
      await this.refuse(row.tenant_code, attempt, 'failure', `card ${fixedNo} holds issue ${fields.header.issueSeq}, not ${row.issue_seq}`);
      throw new AppError(codes.cardOutdated);
    }
    if ((request.oprtNo !== undefined && request.oprtNo !== '' && request.oprtNo !== row.oprt_no) || (request.tenantCode !== undefined && request.tenantCode !== row.tenant_code)) {
      await this.refuse(row.tenant_code, attempt, 'failure', `card ${fixedNo} of another operator`);
      throw new AppError(codes.cardOtherOperator);
    }
    try {
      requireInUse(row.state);
    } catch (error) {
      await this.refuse(row.tenant_code, attempt, 'refused', `card ${fixedNo} in state ${row.state}`);
      throw error;
    }
    const user = await this.deps.account.userById(row.user_id);
    if (!user) throw new AppError(codes.cardUnknown);
    const lock = await this.deps.lockout.state(row.tenant_code, row.oprt_no, clientIp);
    if (lock.throttledUntil !== null) throw throttledError(lock.throttledUntil - this.deps.now());
    if (lock.lockedUntil !== null) {
      await this.refuse(row.tenant_code, attempt, 'locked');
      throw lockedError(lock.lockedUntil);
    }
    if (request.oprtPwd === undefined && cardLoginModeOf(await this.deps.account.tenant(row.tenant_code)) !== 'card-alone') {
      await this.refuse(row.tenant_code, attempt, 'refused', `card ${fixedNo} alone: the tenant signs in with the card password`);
      throw new AppError(codes.cardPasswordRequired);
    }
    if (request.oprtPwd !== undefined && !(await verifyDigest(row.pwd_hash, request.oprtPwd))) {
      return this.deps.login.fail(row.tenant_code, attempt, 'card-login');
    }
    return this.deps.login.openSession(user, attempt, 'card-login', loginTypes.card, row.id);
  }

  private refuse(tenantCode: string, attempt: Attempt, result: 'failure' | 'refused' | 'locked', detail?: string) {
    countSignIn('card', false);
    return this.deps.logs.record({ tenantCode, account: attempt.account, action: 'card-login', result, clientIp: attempt.clientIp, detail });
  }

  // ---- the card password (spec §4 "Card-login password change") ----

  /** The card a card-login session signed in with, in use (notCardLogin for any other session). */
  private async sessionCard(session: SessionInfo): Promise<{ card: AdminLoginCardRow; user: UserRow }> {
    if (session.loginType !== loginTypes.card || !session.cardId) throw new AppError(codes.notCardLogin);
    const card = await this.repo.byId(session.cardId);
    const user = await this.deps.account.userById(session.userId);
    if (!card || !user) throw new AppError(codes.notCardLogin);
    requireInUse(card.state);
    return { card, user };
  }

  private confirmCardPassword(card: AdminLoginCardRow, user: UserRow, digest: string, clientIp: string) {
    return confirmOperatorPassword(this.deps, {
      user,
      digest,
      clientIp,
      action: 'card-password',
      wrongCode: codes.oldPasswordWrong,
      matches: (given) => verifyDigest(card.pwd_hash, given),
    });
  }

  async verifyPassword(session: SessionInfo, digest: string, clientIp: string): Promise<void> {
    const { card, user } = await this.sessionCard(session);
    await refuseIfLocked(this.deps, { user, clientIp, action: 'card-password' });
    await this.confirmCardPassword(card, user, digest, clientIp);
  }

  async prepareChangePassword(session: SessionInfo, request: ChangeGmPasswordPrepare, language: LanguageCode, clientIp: string): Promise<PreparedCardWrite> {
    const { card, user } = await this.sessionCard(session);
    if (request.id !== card.id || fixedNoOf(request.fixedNo) !== card.fixed_no || request.kindNum !== card.kind_num) throw new AppError(codes.cardOtherOperator);
    await refuseIfLocked(this.deps, { user, clientIp, action: 'card-password' });
    const password = await openSealedPassword(this.deps.seal, this.deps.account.deploymentDigestMode, {
      sealed: request.sealedPwd,
      digest: request.oprtPwd,
      sealedField: 'sealedPwd',
      digestField: 'oprtPwd',
    });
    await this.confirmCardPassword(card, user, request.oprtOldPwd, clientIp);
    requirePasswordPolicy(password, language);
    if (await verifyDigest(card.pwd_hash, request.oprtPwd)) throw new AppError(codes.passwordReused);
    const { key, installation } = await this.deps.gm.systemKey();
    const payload: CardPasswordPayload = { cardId: card.id, fromSeq: card.issue_seq, issueSeq: card.issue_seq + 1, pwdHash: await hashDigest(request.oprtPwd) };
    // a new issue number: the card's earlier image (and every copy of it) stops signing in
    const image = buildAdminCard({ systemKey: key, fixedNo: card.fixed_no, customerNo: installation.customer_no, issueSeq: payload.issueSeq, oprtNo: card.oprt_no, cardNum: card.card_num, tenantCode: card.tenant_code });
    const prepareId = await this.prepared.prepare('cardPassword', card.fixed_no, image, payload);
    return { prepareId, fixedNo: card.fixed_no, image: image.toString('hex'), alreadyWritten: false };
  }

  /**
   * Phase two: the new password and issue number, and every session of the card ends (the shell signs out), with the
   * log entry, in one transaction. Until it commits the prepared write stays: a confirm the server did not finish
   * (it stopped, the database went away) is sent again with the same prepareId.
   */
  async confirmChangePassword(session: SessionInfo, confirm: CardWriteConfirm, clientIp: string): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const write = await PreparedCardWrites.take<CardPasswordPayload>(trx, 'cardPassword', confirm.prepareId, this.deps.now());
      if (write.payload.cardId !== session.cardId) throw new AppError(codes.cardWriteUnknown);
      if (!confirm.isSuccess) return;
      const p = write.payload;
      if (!(await new AdminLoginCardRepository(trx).rewrite(p.cardId, p.fromSeq, p.issueSeq, p.pwdHash, this.deps.now()))) throw new AppError(codes.cardWriteUnknown);
      await pauseAt('cardPassword.confirm');
      await this.deps.sessions.over(trx).revokeAllOfCard(p.cardId);
      await this.deps.logs.over(trx).record({ tenantCode: session.tenantCode, account: session.account, action: 'card-password', result: 'success', clientIp });
    });
  }
}
