/**
 * Requests and replies of the server's gate set-up and card sign-in calls (spec §7 card section; the paths are
 * in apiPaths; docs/cards.md "The server's card calls"). Every card write is two-phase: the server prepares the
 * image (PreparedCardWrite), the card issuer writes it onto the card, the shell confirms (CardWriteConfirm).
 */

/** The set-up steps of spec §4 "Gate set-up order", as the entry checks of the card screens need them. */
export interface GateSetupState {
  mjSystem: number;
  /** System type 21 to 29: the card screens are on. */
  isGate: boolean;
  /** System initialisation with the mother card is done. */
  isInit: boolean;
  /** The server can open its system key (false after a lost key-encryption key: recover with the key card). */
  hasSecret: boolean;
  isIssueSecretCard: boolean;
  isIssueSuperAdminCard: boolean;
  /** The installation's customer number ('' until initialisation or CUSTOMER_NO sets it). */
  customerNo: string;
}

/** The card layout the server builds (docs/cards.md "Layout v1"). */
export interface CardSector {
  layoutVersion: number;
  imageSize: number;
  cardKind: number;
}

/** Phase one of every card write: what to write onto which card. */
export interface PreparedCardWrite {
  /** Names this write in the confirm call; good for 10 minutes, once. */
  prepareId: string;
  fixedNo: string;
  /** The image to write (hex). */
  image: string;
  /** The card already holds this image (a write whose confirm was lost): confirm without writing. */
  alreadyWritten: boolean;
}

/** Phase two: whether the issuer wrote the prepared image. isSuccess false forgets the prepared write. */
export interface CardWriteConfirm {
  prepareId: string;
  isSuccess: boolean;
}

/** AddGMInitData: the mother card as the issuer read it, and what the operator typed. */
export interface SystemInitRequest {
  /** 1 to 8 digits, no leading zero (spec §5). */
  customerNo: string;
  /** SM3 hex digest of the customer password. */
  customerPwd: string;
  fixedNo: string;
  /** The mother card's image (hex), as ReadMasterCard answered it. */
  image: string;
}

/** SetSystemInit: the confirm of AddGMInitData, with the mother card read back after the write. */
export interface SystemInitConfirm extends CardWriteConfirm {
  /** The mother card's image (hex) as ReadMasterCard answers it after the write; required when isSuccess. */
  image?: string;
}

/** MasterCardVerify (spec §3 "Card reader read result"). */
export interface MasterCardVerifyRequest {
  sysKeyCode: string;
  customerNo: string;
  /** The card's proof as ReadMasterCard answers it (never the customer password). */
  customerPwd: string;
  /**
   * SM3 hex digest of the customer password the operator typed: required once the set-up is done (a system key card
   * and a super administrator card issued), so that neither the mother card nor a copy of its bytes is a session alone.
   */
  customerPwdDigest?: string;
  /**
   * The public key of the card issuer that read the mother card (AddIdentity): the token may trust only this issuer,
   * and only while the set-up is unfinished.
   */
  devicePublicKey: string;
}

export interface MasterCardToken {
  /** Sent as the `token` header on the set-up and card-management calls (spec §6). */
  token: string;
  /** Seconds it is good for. */
  expiresIn: number;
}

export interface CardFixedNoRequest {
  fixedNo: string;
}

export interface CanIssueCardReply {
  canIssue: boolean;
}

export interface SuperAdmin {
  /** The account (login name) the super administrator card signs in. */
  no: string;
  name: string;
  id: string;
  tenantCode: string;
}

export interface AdminLoginCardSummary {
  id: string;
  fixedNo: string;
  cardNum: number;
  /** Card state (spec §4 "Card states"): 20 in use, 40 lost, … */
  state: number;
  issueSeq: number;
}

export interface SuperAdminIssueData extends SuperAdmin {
  cardKind: number;
  cards: AdminLoginCardSummary[];
}

/** IssueSuperAdmin: the blank card on the reader and the card password (the new-password form of ChangePassword). */
export interface SuperAdminIssueRequest {
  fixedNo: string;
  /** SM3 hex digest of the card password. */
  oprtPwd: string;
  /** The card password sealed to the installation's seal key (the server checks the password policy). */
  sealedPwd: string;
}

/** GetSysKeyChallenge: what the card issuer signs to prove it holds its private key (one use, a minute). */
export interface SysKeyChallenge {
  challenge: string;
  expiresIn: number;
}

/** What the card issuer's SignKeyChallenge answers, sent on with the key calls. */
export interface SignedKeyChallenge {
  challenge: string;
  /** The operator PC's name as the issuer reports it (signed with the challenge). */
  hostName: string;
  /** SM2 signature (SM3 with the default user id, r‖s hex) of issuerChallengeMessage(challenge, hostName). */
  signature: string;
}

export interface SysKeyDataRequest extends SignedKeyChallenge {
  /** The card issuer's SM2 public key (AddIdentity answers it). */
  devicePublicKey: string;
}

/** One row of the trusted card issuers' registry (docs/cards.md "Trusted issuers"). */
export interface TrustedIssuerRow {
  deviceId: string;
  hostName: string;
  /** 'master-card' or 'key-card:<fixedNo>'. */
  trustedBy: string;
  /** Who made the last trust: the address it came from. */
  clientIp: string;
  firstTrustedAt: number;
  /** The last trust or renewal; the trust ends at expiresAt. */
  trustedAt: number;
  expiresAt: number;
  /** The last key fetch (0: none since the trust). */
  lastFetchAt: number;
  lastFetchIp: string;
  state: 'trusted' | 'expired' | 'revoked';
  revokedAt: number | null;
  revokedBy: string | null;
}

export interface GmSysKeyDataRequest extends SysKeyDataRequest {
  /** The system key card on the reader, as ReadBaseInfo answered it. */
  fixedNo: string;
  image: string;
  /**
   * SM3 digest of the customer password: the card's bytes alone can be copied, so the server opens the card with
   * the customer password before it trusts the issuer (docs/cards.md "What each card can do").
   */
  customerPwd: string;
}

export interface SysKeyDataReply {
  /** SM2 (C1C3C2) of the system key and its key id, sealed to devicePublicKey: the issuer's Init takes it. */
  sysKeyData: string;
}

/**
 * How a tenant's administrators sign in with their card (GetCardLoginSetting): the card and its card password, or
 * the card alone where the tenant's system administrator allows it (a copy of the card's bytes then signs in too).
 */
export const cardLoginModes = ['card-and-password', 'card-alone'] as const;
export type CardLoginMode = (typeof cardLoginModes)[number];
export const defaultCardLoginMode: CardLoginMode = 'card-and-password';

export interface CardLoginSetting {
  cardLogin: boolean;
  cardKind: number;
  /** The tenant's card sign-in (the tenantcode header's, else the lowest code's). */
  cardLoginMode: CardLoginMode;
}

/** `POST apiPaths.setCardLoginSetting`: the signed-in system administrator's tenant. */
export interface SetCardLoginSettingRequest {
  cardLoginMode: CardLoginMode;
}

/** What the card issuer relays to the server's card sign-in (apiPaths.cardLogin). */
export interface ServerCardLoginRequest {
  cardKind: number;
  fixedNo: string;
  image: string;
  /** The login name typed with the swipe (swipe plus password); the card's own operator otherwise. */
  oprtNo?: string;
  /** SM3 hex digest of the card password (swipe plus password). */
  oprtPwd?: string;
  /** The tenant chosen when the login name is in several tenants. */
  tenantCode?: string;
}

export interface VerifyGmPasswordRequest {
  oprtPwd: string;
}

/** ChangeGMPassword, phase one: the card the administrator signed in with and its new password. */
export interface ChangeGmPasswordPrepare {
  id: string;
  kindNum: number;
  fixedNo: string;
  /** SM3 hex digest of the new card password. */
  oprtPwd: string;
  sealedPwd: string;
  /** SM3 hex digest of the current card password (checked again: VerifyGMPassword alone binds nothing). */
  oprtOldPwd: string;
}
