import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { sm2 } from 'sm-crypto-v2';
import { classifyCard, customerKey, initialiseMotherCard, isSm2PublicKey, openMotherCard, readMotherCard, sm4DecryptBlock, sm4EncryptBlock, systemKeyId, trimImage } from '@campus/card-crypto';
import type { CustomerKeyDerivation } from '@campus/card-crypto';
import { codes, isGateSystem } from '@campus/contracts';
import type { GateSetupState, MasterCardToken, MasterCardVerifyRequest, PreparedCardWrite, SysKeyChallenge, SysKeyDataRequest, SystemInitConfirm, SystemInitRequest } from '@campus/contracts';
import type { DB } from '../../db/schema.ts';
import { AppError, InvalidRequest } from '../../http/envelope.ts';
import { sha256Hex } from '../../lib/hash.ts';
import { pauseAt } from '../../lib/pause-points.ts';
import { fixedNoOf, hexBytes } from '../card-primitives/card-input.ts';
import { imageHash, PreparedCardWrites } from '../card-primitives/prepared-card-writes.ts';
import type { LicenceService } from '../licence/licence-service.ts';
import type { OperationLogService } from '../operation-log/operation-log-service.ts';
import { installationWide } from '../operation-log/operation-log-service.ts';
import { isCommonCustomerPasswordDigest } from './common-customer-passwords.ts';
import type { IssuedCards } from '../card-primitives/issued-cards.ts';
import type { CustomerPasswordAttempts } from './customer-password-attempts.ts';
import { GmAccountRepository } from './gm-account-repository.ts';
import type { GateInstallationRow } from './gm-account-repository.ts';
import type { SystemKeyVault } from './system-key-vault.ts';
import { TrustedIssuers } from './trusted-issuers.ts';

/**
 * How long a master-card token is good for (spec §6: the set-up and card-management calls). Short: a copy of the
 * mother card's bytes makes one as well as the card (docs/cards.md "What each card can do").
 */
export const masterTokenTtlMs = 15 * 60_000;
const masterTokenPattern = /^[A-Za-z0-9_-]{43}$/;

/** What initialisation keeps until its confirm (the system key only sealed under the KEK). */
interface InitPayload {
  customerNo: string;
  sysKeyCode: string;
  proofHash: string;
  kid: string;
  sealedSystemKey: string;
  customerSealedKey: string;
  motherCardSalt: string;
  /** Absent in a prepare made before migration 0022: the old derivation. */
  customerKeyDerivation?: CustomerKeyDerivation;
}

export interface GmAccountDeps {
  db: Kysely<DB>;
  vault: SystemKeyVault;
  licence: Pick<LicenceService, 'customerInfo' | 'adoptCustomerNo'>;
  logs: OperationLogService;
  /** The customer-password lock-out shared by every call that checks it (the mother-card swipe after the set-up). */
  attempts: CustomerPasswordAttempts;
  mjSystem: number;
  now: () => number;
  /** How long a card issuer's trust lasts (ISSUER_TRUST_HOURS). */
  issuerTrustTtlMs: number;
  /** Whether a system key card / a super administrator card is issued (the set-up's steps done). */
  issued: Pick<IssuedCards, 'anyKeyCardIssued' | 'anySuperAdminCardIssued'>;
  /** Runs in the transaction that initialises an installation (the demo adds its card history). */
  afterInit?: (trx: Kysely<DB>) => Promise<void>;
}

/** A card issuer's SM2 public key, lower case; a bad request when it is no point of the curve. */
function sm2PublicKeyOf(devicePublicKey: string): string {
  const publicKey = devicePublicKey.toLowerCase();
  if (!isSm2PublicKey(publicKey)) throw new InvalidRequest('body/devicePublicKey must be an uncompressed SM2 public key (130 hex digits)');
  return publicKey;
}

function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a.toLowerCase(), 'utf8');
  const y = Buffer.from(b.toLowerCase(), 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The gate set-up (spec §4 "Gate set-up order", docs/cards.md): system initialisation with the mother card,
 * the master-card token, the system key (sealed at rest, sealed to trusted card issuers on the way out).
 */
export class GmAccountService {
  private readonly repo: GmAccountRepository;
  private readonly prepared: PreparedCardWrites;
  /** The registry of trusted card issuers (the key-card table's neighbour in card management). */
  readonly issuers: TrustedIssuers;

  constructor(private readonly deps: GmAccountDeps) {
    this.repo = new GmAccountRepository(deps.db);
    this.prepared = new PreparedCardWrites(deps.db, deps.now);
    this.issuers = new TrustedIssuers({ db: deps.db, logs: deps.logs, now: deps.now, trustTtlMs: deps.issuerTrustTtlMs });
  }

  get isGate(): boolean {
    return isGateSystem(this.deps.mjSystem);
  }

  async state(): Promise<GateSetupState> {
    const row = await this.repo.installation();
    const [isIssueSecretCard, isIssueSuperAdminCard, customer] = await Promise.all([this.deps.issued.anyKeyCardIssued(), this.deps.issued.anySuperAdminCardIssued(), this.deps.licence.customerInfo()]);
    return {
      mjSystem: this.deps.mjSystem,
      isGate: this.isGate,
      isInit: row !== undefined,
      hasSecret: row !== undefined && this.openSystemKey(row) !== null,
      isIssueSecretCard,
      isIssueSuperAdminCard,
      customerNo: row?.customer_no ?? customer.customerNo,
    };
  }

  private openSystemKey(row: GateInstallationRow): Buffer | null {
    const key = this.deps.vault.open(row.sealed_system_key);
    return key && key.length === 16 && systemKeyId(key).toString('hex') === row.kid ? key : null;
  }

  /** The system key id (hex) of an initialised installation, '' before. */
  async keyId(): Promise<string> {
    return (await this.repo.installation())?.kid ?? '';
  }

  /** The initialised installation (systemNotInitialised otherwise). */
  async installation(): Promise<GateInstallationRow> {
    const row = await this.repo.installation();
    if (!row) throw new AppError(codes.systemNotInitialised);
    return row;
  }

  /** The system key in clear, for building and checking cards in this process only; never stored or logged. */
  async systemKey(): Promise<{ key: Buffer; installation: GateInstallationRow }> {
    const installation = await this.installation();
    const key = this.openSystemKey(installation);
    if (!key) throw new AppError(codes.systemSecretMissing);
    return { key, installation };
  }

  /**
   * Restores the system key a system key card and the customer password opened (card management's recovery):
   * only this installation's key, sealed again under this server's KEK (after a lost or replaced KEK file).
   */
  async restoreSystemKey(key: Buffer, db: Kysely<DB> = this.deps.db): Promise<void> {
    const installation = await new GmAccountRepository(db).installation();
    if (!installation) throw new AppError(codes.systemNotInitialised);
    const kid = systemKeyId(key).toString('hex');
    if (kid !== installation.kid || !(await new GmAccountRepository(db).resealSystemKey(kid, this.deps.vault.seal(key)))) throw new AppError(codes.keyCardCannotRecover);
  }

  // ---- system initialisation (two-phase) ----

  async prepareInit(request: SystemInitRequest, clientIp: string): Promise<PreparedCardWrite> {
    if (await this.repo.installation()) throw new AppError(codes.systemAlreadyInitialised);
    const fixedNo = fixedNoOf(request.fixedNo);
    const image = trimImage(hexBytes(request.image, 'image'));
    if (classifyCard(image) !== 'mother') throw new AppError(codes.notMotherCard);
    let card;
    try {
      card = readMotherCard(image);
    } catch {
      throw new AppError(codes.notMotherCard);
    }
    if (card.customerNo !== request.customerNo) throw new AppError(codes.customerNoMismatch, { values: { customerNo: request.customerNo } });
    const { customerNo: installationCustomerNo } = await this.deps.licence.customerInfo();
    if (installationCustomerNo !== '' && installationCustomerNo !== card.customerNo) {
      throw new AppError(codes.customerNoOtherInstallation, { values: { customerNo: installationCustomerNo } });
    }
    // refused before the card is opened: the answer says nothing of whether the password is the card's
    if (isCommonCustomerPasswordDigest(request.customerPwd)) {
      await this.log(clientIp, 'system-init', 'failure', 'a common customer password');
      throw new AppError(codes.customerPasswordWeak);
    }
    try {
      openMotherCard(image, request.customerPwd);
    } catch {
      await this.log(clientIp, 'system-init', 'failure', 'wrong customer password');
      throw new AppError(codes.customerPasswordWrong);
    }
    if (card.initialised) {
      // the write of an earlier prepare landed but its confirm was lost: confirm that one, do not write again
      const pending = await this.prepared.pendingFor<InitPayload>('systemInit', fixedNo);
      if (pending && pending.imageHash === imageHash(image)) {
        const prepareId = await this.prepared.prepare('systemInit', fixedNo, image, pending.payload);
        return { prepareId, fixedNo, image: image.toString('hex'), alreadyWritten: true };
      }
      throw new AppError(codes.motherCardUsed);
    }
    const systemKey = randomBytes(16);
    let written;
    try {
      written = initialiseMotherCard(image, fixedNo, request.customerPwd, systemKey);
    } catch {
      throw new AppError(codes.notMotherCard);
    }
    const payload: InitPayload = {
      customerNo: card.customerNo,
      sysKeyCode: card.sysKeyCode,
      proofHash: sha256Hex(readMotherCard(written.image).proof),
      kid: systemKeyId(systemKey).toString('hex'),
      sealedSystemKey: this.deps.vault.seal(systemKey),
      customerSealedKey: written.recovery.sealedSystemKey.toString('hex'),
      motherCardSalt: written.recovery.cardSalt.toString('hex'),
      customerKeyDerivation: written.recovery.derivation,
    };
    const prepareId = await this.prepared.prepare('systemInit', fixedNo, written.image, payload);
    return { prepareId, fixedNo, image: written.image.toString('hex'), alreadyWritten: false };
  }

  /**
   * Phase two: the mother card read back must hold the prepared image; then the installation is initialised, in one
   * transaction with the customer number, the log entry and the demo's cards. Until it commits the prepared write
   * stays: a confirm the server did not finish is sent again, or a new prepare finds the image on the card.
   */
  async confirmInit(confirm: SystemInitConfirm, clientIp: string): Promise<GateSetupState> {
    await this.deps.db.transaction().execute(async (trx) => {
      const write = await PreparedCardWrites.take<InitPayload>(trx, 'systemInit', confirm.prepareId, this.deps.now());
      if (!confirm.isSuccess) return;
      if (confirm.image === undefined || imageHash(trimImage(hexBytes(confirm.image, 'image'))) !== write.imageHash) {
        throw new AppError(codes.cardWriteUnknown);
      }
      const p = write.payload;
      const stored = await new GmAccountRepository(trx).insertInstallationThenRead({
        customer_no: p.customerNo,
        mother_fixed_no: write.fixedNo,
        sys_key_code: p.sysKeyCode,
        mother_proof_hash: p.proofHash,
        kid: p.kid,
        sealed_system_key: p.sealedSystemKey,
        customer_sealed_key: p.customerSealedKey,
        mother_card_salt: p.motherCardSalt,
        customer_key_derivation: p.customerKeyDerivation ?? 'pbkdf2-sm3',
        initialised_at: this.deps.now(),
      });
      if (stored.kid !== p.kid) throw new AppError(codes.systemAlreadyInitialised);
      await pauseAt('system.init');
      // the rest of the initialisation lands with it: an installation initialised without them could not be
      // initialised again to finish them
      await this.deps.licence.adoptCustomerNo(p.customerNo, trx);
      await this.log(clientIp, 'system-init', 'success', `customer ${p.customerNo}`, trx);
      await this.deps.afterInit?.(trx);
    });
    return this.state();
  }

  // ---- the master card ----

  async verifyMasterCard(request: MasterCardVerifyRequest, clientIp: string): Promise<MasterCardToken> {
    const devicePublicKey = sm2PublicKeyOf(request.devicePublicKey);
    const row = await this.installation();
    const matches =
      sameHex(request.customerNo, row.customer_no) && sameHex(request.sysKeyCode, row.sys_key_code) && sameHex(sha256Hex(request.customerPwd.toLowerCase()), row.mother_proof_hash);
    if (!matches) {
      await this.log(clientIp, 'master-card', 'failure');
      throw new AppError(codes.masterCardRejected);
    }
    if (await this.setUpDone()) await this.requireCustomerPassword(row, request.customerPwdDigest, clientIp);
    const token = randomBytes(32).toString('base64url');
    const now = this.deps.now();
    await this.repo.insertMasterToken(sha256Hex(token), devicePublicKey, now, now + masterTokenTtlMs);
    await this.log(clientIp, 'master-card', 'success');
    return { token, expiresIn: masterTokenTtlMs / 1000 };
  }

  /** The set-up is done once a system key card and a super administrator card are issued. */
  private async setUpDone(): Promise<boolean> {
    const [keyCard, superAdminCard] = await Promise.all([this.deps.issued.anyKeyCardIssued(), this.deps.issued.anySuperAdminCardIssued()]);
    return keyCard && superAdminCard;
  }

  /**
   * After the set-up the mother card is a session only with the customer password typed by the operator: the card is a
   * memory card, so its proof alone is what any copy of its bytes carries (docs/cards.md "What each card can do").
   * The password is right when it opens the system key the installation keeps sealed under K_cust.
   */
  private async requireCustomerPassword(row: GateInstallationRow, digest: string | undefined, clientIp: string): Promise<void> {
    const { attempts } = this.deps;
    await attempts.requireUnlocked(clientIp);
    if (digest === undefined) throw new AppError(codes.customerPasswordRequired);
    const systemKey = this.openedByCustomerPassword(row, digest.toLowerCase());
    if (!systemKey) {
      await this.log(clientIp, 'master-card', 'failure', 'wrong customer password');
      await attempts.wrong(clientIp);
      return;
    }
    await attempts.right(clientIp);
    await this.upgradeCustomerSeal(systemKey, digest.toLowerCase());
  }

  /** The system key when `digest` opens the installation's customer-sealed key, else null. */
  private openedByCustomerPassword(row: GateInstallationRow, digest: string): Buffer | null {
    const key = customerKey(row.customer_no, digest, Buffer.from(row.mother_card_salt, 'hex'), row.customer_key_derivation);
    const systemKey = sm4DecryptBlock(key, Buffer.from(row.customer_sealed_key, 'hex'));
    return systemKeyId(systemKey).toString('hex') === row.kid ? systemKey : null;
  }

  /**
   * An installation initialised with the old K_cust (PBKDF2-HMAC-SM3) has its customer-sealed key sealed again under
   * argon2id once a call shows the right customer password: the system key cards written from then on carry that seal.
   * `systemKey` and `customerPwdDigest` are what the caller has just checked.
   */
  async upgradeCustomerSeal(systemKey: Buffer, customerPwdDigest: string): Promise<void> {
    const row = await this.repo.installation();
    if (!row || row.customer_key_derivation === 'argon2id' || systemKeyId(systemKey).toString('hex') !== row.kid) return;
    const key = customerKey(row.customer_no, customerPwdDigest.toLowerCase(), Buffer.from(row.mother_card_salt, 'hex'), 'argon2id');
    await this.repo.resealForCustomer(row.kid, sm4EncryptBlock(key, systemKey).toString('hex'), 'argon2id');
  }

  /** Whether `token` is a live master-card token. */
  async masterTokenLive(token: string): Promise<boolean> {
    return (await this.liveMasterToken(token)) !== undefined;
  }

  private async liveMasterToken(token: string): Promise<{ device_public_key: string | null } | undefined> {
    if (!masterTokenPattern.test(token)) return undefined;
    return this.repo.liveMasterToken(sha256Hex(token), this.deps.now());
  }

  /**
   * Whether a master-card token may make the issuer of `devicePublicKey` trusted: only the issuer that read the mother
   * card, and only while the set-up it exists for is unfinished (no system key card or no super administrator card
   * issued yet). After the set-up a copy of the mother card's bytes must not reach the system key: a new issuer is
   * then trusted by the system key card with the customer password (KeyCardIssuerTrust).
   */
  async masterTokenMayTrust(token: string, devicePublicKey: string): Promise<boolean> {
    const live = await this.liveMasterToken(token);
    if (live?.device_public_key !== devicePublicKey.toLowerCase()) return false;
    return !(await this.setUpDone());
  }

  // ---- the system key for card issuers ----

  /** A one-time challenge the card issuer of `devicePublicKey` signs to have the system key sealed to it. */
  async keyChallenge(devicePublicKey: string, clientIp: string): Promise<SysKeyChallenge> {
    const publicKey = sm2PublicKeyOf(devicePublicKey);
    await this.systemKey();
    return this.issuers.challenge(publicKey, clientIp);
  }

  /**
   * The system key and its key id, SM2-sealed to a card issuer's public key, for an issuer that signed its challenge.
   * `trustedBy` (a master-card swipe, a system key card) trusts the issuer or renews its trust first; without it only
   * an issuer whose trust is in effect gets the key (TrustedIssuers).
   */
  async sysKeyDataFor(request: SysKeyDataRequest, trustedBy: string | null, clientIp: string): Promise<string> {
    const publicKey = sm2PublicKeyOf(request.devicePublicKey);
    const { key } = await this.systemKey();
    await this.issuers.admit(publicKey, request, trustedBy, clientIp);
    return sm2.doEncrypt(new Uint8Array(Buffer.concat([key, systemKeyId(key)])), publicKey, 1);
  }

  private log(clientIp: string, action: 'system-init' | 'master-card', result: 'success' | 'failure', detail?: string, trx?: Kysely<DB>) {
    return (trx ? this.deps.logs.over(trx) : this.deps.logs).record({ tenantCode: installationWide, account: '', action, result, clientIp, detail });
  }
}
