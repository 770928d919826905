/** The local card issuer's calls (spec §7 "Card-device calls"; docs/cards.md). All POST, JSON. */
export const cardIssuerPaths = {
  addIdentity: '/api/AuthDevice/AddIdentity',
  switchIdentity: '/api/AuthDevice/SwitchIdentity',
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
