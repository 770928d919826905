import type { LanguageCode, Localised } from './languages.ts';

/** Card states of spec §4 "Card states" (docs/cards.md): the server keeps them, the shell's buttons mirror them. */
export const cardStates = { notIssued: 10, inUse: 20, recycled: 30, lost: 40, damaged: 60, frozen: 80 } as const;
export type CardState = (typeof cardStates)[keyof typeof cardStates];

export const cardStateLabels: Record<CardState, Localised> = {
  [cardStates.notIssued]: { 'en-US': 'not issued', 'zh-CN': '未发行', 'zh-MO': '未發行' },
  [cardStates.inUse]: { 'en-US': 'in use', 'zh-CN': '使用中', 'zh-MO': '使用中' },
  [cardStates.recycled]: { 'en-US': 'recycled', 'zh-CN': '已回收', 'zh-MO': '已回收' },
  [cardStates.lost]: { 'en-US': 'lost', 'zh-CN': '已挂失', 'zh-MO': '已掛失' },
  [cardStates.damaged]: { 'en-US': 'damaged', 'zh-CN': '已损坏', 'zh-MO': '已損壞' },
  [cardStates.frozen]: { 'en-US': 'frozen', 'zh-CN': '已冻结', 'zh-MO': '已凍結' },
};

export function cardStateLabel(state: number, language: LanguageCode): string {
  return cardStateLabels[state as CardState]?.[language] ?? String(state);
}

/** Card kind 11 (spec §9): the kind of the administrator login cards and the system key cards (cardKind of the card calls). */
export const managementCardKind = 11;

/** The management card kind by its name. */
export const managementCardKindLabel: Localised = { 'en-US': 'Management card', 'zh-CN': '管理卡', 'zh-MO': '管理卡' };

/** The state actions of the card management tables. */
export type CardStateAction = 'loss' | 'unLoss' | 'freeze' | 'unFreeze' | 'damage';

export interface CardStateRule {
  /** The states a card may be in for the action. */
  from: readonly number[];
  to: CardState;
  /** The action takes the card out of use: its holder's sessions end at once. */
  endsSessions: boolean;
  /** The action applies to one card at a time (spec §4: damage). */
  single: boolean;
}

/** Spec §4: loss and freeze only from in use, unloss from lost, unfreeze from frozen, damage one card not 10/30/60. */
export const cardStateRules: Record<CardStateAction, CardStateRule> = {
  loss: { from: [cardStates.inUse], to: cardStates.lost, endsSessions: true, single: false },
  unLoss: { from: [cardStates.lost], to: cardStates.inUse, endsSessions: false, single: false },
  freeze: { from: [cardStates.inUse], to: cardStates.frozen, endsSessions: true, single: false },
  unFreeze: { from: [cardStates.frozen], to: cardStates.inUse, endsSessions: false, single: false },
  damage: { from: [cardStates.inUse, cardStates.lost, cardStates.frozen], to: cardStates.damaged, endsSessions: true, single: true },
};

/** Whether an action may be applied to the selected cards (their states): all of them, or none. */
export function mayApply(action: CardStateAction, states: readonly number[]): boolean {
  const rule = cardStateRules[action];
  if (states.length === 0 || (rule.single && states.length !== 1)) return false;
  return states.every((state) => rule.from.includes(state));
}

/** Search of a card management table (spec §7 SystemKeyCard/Search; the same for administrator login cards). */
export interface CardSearchRequest {
  page: { index: number; size: number };
  /** OprtId (an operator's id), likeSearch (part of the fixed number, card number or login name), cardKinds and states (JSON arrays). */
  filters?: { field: 'OprtId' | 'likeSearch' | 'cardKinds' | 'states'; value: string }[];
  /** createTime (default, newest first), state, fixedNo or num. */
  orderBys?: { field: 'createTime' | 'state' | 'fixedNo' | 'num'; isAsc?: boolean }[];
}

/** A row of the administrator login card table (spec §3); the card password never leaves the server. */
export interface AdminLoginCardRow {
  id: string;
  oprtNo: string;
  oprtName: string;
  kindNum: number;
  fixedNo: string;
  state: number;
  oprtId: string;
  num: number;
  createTime: number;
}

/** A row of the system key card table (spec §3). */
export interface SystemKeyCardRow {
  id: string;
  kindNum: number;
  fixedNo: string;
  state: number;
  createTime: number;
}

export interface CardOption {
  value: number;
  label: string;
}

/** Card management tables (spec §9): page size 15 with these options, table height 400; the server's largest page. */
export const cardTablePaging = { pageSize: 15, pageSizeOptions: [15, 30, 50, 100, 500], tableHeight: 400, maxPageSize: 500 } as const;

/** The states a card may be recycled (blanked on the reader) from (docs/cards.md). */
export const recycleFromStates: readonly number[] = [cardStates.inUse, cardStates.frozen];

/** Whether a card may be recycled (blanked on the reader): in use or frozen; a lost card is found again first. */
export function mayRecycle(state: number): boolean {
  return recycleFromStates.includes(state);
}

/** GetCardIssueData: phase one of issuing an administrator login card to a system administrator of the tenant. */
export interface AdminCardIssueRequest {
  oprtId: string;
  /** The blank card's fixed number (CheckOprtLoginCardCanIssue). */
  fixedNo: string;
  /** SM3 hex digest of the card password. */
  oprtPwd: string;
  /** The card password SM2-sealed to the seal key (the server checks its policy). */
  sealedPwd: string;
}

/** ReWrite: the card in use written again (same card, new issue number). */
export interface AdminCardRewriteRequest {
  id: string;
  fixedNo: string;
}

/** GetCardRecycleData: what to blank and the prepareId of its confirm. */
export interface CardRecycleData {
  prepareId: string;
  id: string;
  fixedNo: string;
  cardKind: number;
}

/** Recycle: phase two; isSuccess false forgets the prepared recycle and the card stays as it was. */
export interface CardRecycleConfirm {
  id: string;
  prepareId: string;
  isSuccess: boolean;
}

/** CheckCardCanRecovery: a system key card in use of this installation can recover; prepareId names the recovery. */
export interface CardRecoveryCheck {
  canRecovery: boolean;
  prepareId: string | null;
}

/** RecoverySystemKey: the key card as the issuer read it (RecoverySystemKey) and the customer password. */
export interface SystemKeyRecoveryConfirm {
  prepareId: string;
  isSuccess: boolean;
  fixedNo: string;
  /** Required when isSuccess: the key card's image (hex). */
  image?: string;
  /** Required when isSuccess: SM3 hex digest of the customer password. */
  customerPwd?: string;
}

/** A system administrator of the tenant (SystemAdminLoginCard/GetSystemAdmin): who may hold an administrator login card. */
export interface SystemAdminOption {
  id: string;
  no: string;
  name: string;
}

/** The card issuer's CheckIsSystemKeyCard reply. */
export interface SystemKeyCardCheck {
  fixedNo: string;
  isSystemKeyCard: boolean;
}

/** keyCardCannotRecover (241) when the card read for recovery is an administrator login card: what is wanted instead. */
export const adminCardOfferedForRecovery: Localised = {
  'en-US': 'The card read is an administrator login card, not a system key card: recovering the system needs the system key card in use',
  'zh-CN': '读到的卡片是管理员登录卡，不是系统密钥卡：恢复系统需要使用中的系统密钥卡',
  'zh-MO': '讀到的卡片是管理員登入卡，不是系統密鑰卡：恢復系統需要使用中的系統密鑰卡',
};
