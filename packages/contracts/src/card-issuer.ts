import type { managementCardKind } from './card-states.ts';
/** The local card issuer's calls (spec §7 "Card-device calls"; docs/cards.md). All POST, JSON. */
export const cardIssuerPaths = {
  addIdentity: '/api/AuthDevice/AddIdentity',
  switchIdentity: '/api/AuthDevice/SwitchIdentity',
  signKeyChallenge: '/api/AuthDevice/SignKeyChallenge',
  newDeviceKey: '/api/AuthDevice/NewDeviceKey',
  init: '/api/GMSystemCard/Init',
  setGateway: '/api/GMSystemCard/SetGateWay',
  readMasterCard: '/api/GMSystemCard/ReadMasterCard',
  checkSystemKeyCardCanIssue: '/api/GMSystemCard/CheckSystemKeyCardCanIssue',
  issueSystemKeyCard: '/api/GMSystemCard/IssueSystemKeyCard',
  checkOprtLoginCardCanIssue: '/api/GMSystemCard/CheckOprtLoginCardCanIssue',
  issueSuperAdminCard: '/api/GMSystemCard/IssueSuperAdminCard',
  issueOprtLoginCard: '/api/GMSystemCard/IssueOprtLoginCard',
  login: '/api/GMSystemCard/Login',
  checkOprtLoginCardCanChangePwd: '/api/GMSystemCard/CheckOprtLoginCardCanChangePwd',
  changePwdOprtLoginCard: '/api/GMSystemCard/ChangePwdOprtLoginCard',
  readOprtLoginCard: '/api/GMSystemCard/ReadOprtLoginCard',
  checkOprtLoginCardCanClear: '/api/GMSystemCard/CheckOprtLoginCardCanClear',
  clearOprtLoginCard: '/api/GMSystemCard/ClearOprtLoginCard',
  checkIsSystemKeyCard: '/api/GMSystemCard/CheckIsSystemKeyCard',
  checkSystemKeyCardCanClear: '/api/GMSystemCard/CheckSystemKeyCardCanClear',
  clearSystemKeyCard: '/api/GMSystemCard/ClearSystemKeyCard',
  recoverySystemKey: '/api/GMSystemCard/RecoverySystemKey',
  readBaseInfo: '/api/UserCard/ReadBaseInfo',
  writeCard: '/api/GMCard',
} as const;

/** The header that names a paired browser session on every card call (spec §7 cardDeviceToken). */
export const cardDeviceTokenHeader = 'carddevicetoken';

/** What a card on the reader is, as the issuer reports it. */
export interface CardOnReaderInfo {
  fixedNo: string;
  /** blank, mother, systemKey, adminLogin or unknown (docs/cards.md). */
  cardClass: string;
  /** The card's bytes as stored (hex), for the server to verify. */
  image: string;
}

// ---- requests and replies of the card issuer (the issuer checks them with its own schemas) ----

export interface PairRequest {
  /** 16 to 64 of [A-Za-z0-9_-], made by the shell per browser session. */
  cardDeviceToken: string;
}
export interface PairReply {
  deviceId: string;
  /** The issuer's SM2 public key (uncompressed hex): the server seals the system key data to it. */
  devicePublicKey: string;
  readerName: string;
  /** The version of the build the issuer came from (shellVersion); issuers of 3.6.0.26112601 and before leave it out. */
  issuerVersion: string;
}
/** SignKeyChallenge: the server's key challenge (GetSysKeyChallenge) to be signed by the issuer's private key. */
export interface SignKeyChallengeRequest {
  challenge: string;
}
/** NewDeviceKey: the issuer's new key pair (the old one was revoked); pair again or use these. */
export interface NewDeviceKeyReply {
  deviceId: string;
  devicePublicKey: string;
}
export interface InitRequest {
  /** Hex of SM2 (C1C3C2) of the system key ‖ its key id, sealed by the server to devicePublicKey. */
  sysKeyData: string;
}
export interface SetGatewayRequest {
  /** The server's origin; one of the issuer's allowed origins. */
  gatewayAddr: string;
}
export interface CardKindRequest {
  cardKind: typeof managementCardKind;
}
export interface CardOnReaderRequest extends CardKindRequest {
  cardFixedNo: string;
}
export interface WriteCardRequest {
  fixedNo: string;
  /** The image the server prepared (hex, at most 256 bytes). */
  image: string;
}
export interface GenericWriteRequest extends WriteCardRequest {
  expect: 'blank' | 'mother' | 'ours';
}
export interface CardLoginRequest extends CardKindRequest {
  oprtNo?: string;
  /** SM3 hex digest of the password (swipe plus password). */
  oprtPwd?: string;
  /** The tenant chosen when the login name is in several tenants (relayed to the server). */
  tenantCode?: string;
}
/** ReadBaseInfo, ReadOprtLoginCard and RecoverySystemKey; the opened fields only for this installation's cards. */
export interface CardReadReply extends CardOnReaderInfo {
  cardKind: number;
  customerNo: string;
  /** Key id of the installation on the card (hex), '' for a card not ours. */
  kid: string;
  issueSeq: number;
  oprtNo?: string;
  cardNum?: number;
  tenantCode?: string;
}
/** ReadMasterCard (spec §3 "Card reader read result"); customerPwd is the card's proof, never the password. */
export interface MasterCardReadReply extends CardReadReply {
  sysKeyCode: string;
  customerPwd: string;
  initialised: boolean;
}
export interface CanIssueReply {
  fixedNo: string;
  canIssue: true;
}
export interface CanClearReply {
  fixedNo: string;
  canClear: true;
}
export interface CardLoginReply {
  token: string;
  tenantCode: string;
}
