import type { GateSetupState } from '@campus/contracts';
import { isGateSystem } from '@campus/contracts';

/** The steps of spec §4 "Gate set-up order", then the card sign-in they lead to. */
export type GateStep = 'systemInit' | 'recoverSecret' | 'masterCard' | 'keyCard' | 'superAdminCard' | 'login';

/**
 * The two route families of the card screens (spec §2 route table): the plain screens and their key-card-*
 * variants. A screen sends the operator on within its own family (docs/cards.md "The shell's screens").
 */
export type GateFamily = 'plain' | 'keyCard';

/** Reading the system key card into the issuer again has one screen for both families. */
const recoverSecretPath = '/re-swipe-sys-sceret';

export const gateStepPathsOf: Record<GateFamily, Record<GateStep, string>> = {
  plain: {
    systemInit: '/system-init',
    recoverSecret: recoverSecretPath,
    masterCard: '/swipe-master-card-gm',
    keyCard: '/swiper-sys-secret',
    superAdminCard: '/create-superuser',
    login: '/swipe-login',
  },
  keyCard: {
    systemInit: '/key-card-system-init',
    recoverSecret: recoverSecretPath,
    masterCard: '/key-card-swipe-master-card-gm',
    keyCard: '/key-card-swiper-sys-secret',
    superAdminCard: '/key-card-create-superuser',
    login: '/key-card-swipe-login',
  },
};

/** The plain family's steps (the screens without a key-card variant lead into it). */
export const gateStepPaths = gateStepPathsOf.plain;

/** The card management table each family's mother-card swipe ends on (spec §4: the key-card one on /system-keycard). */
const managementTableOf: Record<GateFamily, string> = { plain: '/systemadmin-logincard', keyCard: '/system-keycard' };

/** The family of a card route: the key-card-* routes and the system key card table are the key-card family. */
export function gateFamilyOf(pathname: string): GateFamily {
  return /^\/key-card-[^/]+\/?$/.test(pathname) || /^\/system-keycard\/?$/.test(pathname) ? 'keyCard' : 'plain';
}

/** The sign-in screens a set-up step may come back to (the refresh of the issuer's key returns there). */
export const cardLoginPaths = ['/swipe-login', '/pwd-swipe-login', '/key-card-swipe-login'] as const;

/** The card screens (spec §2), by what their entry check needs. */
export type GateScreen =
  | 'systemInit'
  | 'masterCard'
  | 'keyCard'
  | 'superAdminCard'
  | 'login'
  /** Reads the system key card into the issuer again: once the set-up is done, or when the secret is missing. */
  | 'reSwipe'
  /** The choice of the way in: any gate deployment. */
  | 'selectFunc'
  /** The super administrator's card (re-issue): an initialised system and a master-card token. */
  | 'management'
  /** The administrator login card table: an initialised system with its key, and a master-card token or a session. */
  | 'adminCards'
  /** The system key card table: an initialised system, a master-card token or a session; also without the key (recovery). */
  | 'keyCards';

/** The mother-card swipe that comes back to each card management screen (afterMasterCard). */
export const managementMasterCardPaths = {
  adminCards: gateStepPathsOf.plain.masterCard,
  keyCards: gateStepPathsOf.keyCard.masterCard,
} as const;

/** The first step not done yet (spec §2 "Entry checks on card screens"). */
export function firstMissingStep(state: GateSetupState, hasMasterToken: boolean): GateStep {
  if (!state.isInit) return 'systemInit';
  if (!state.hasSecret) return 'recoverSecret';
  if (!state.isIssueSecretCard || !state.isIssueSuperAdminCard) {
    if (!hasMasterToken) return 'masterCard';
    return state.isIssueSecretCard ? 'superAdminCard' : 'keyCard';
  }
  return 'login';
}

/**
 * After the set-up (a system key card and a super administrator card issued) the mother-card swipe needs the customer
 * password typed by the operator (docs/cards.md "What each card can do"); the server enforces it.
 */
export function motherCardNeedsPassword(state: GateSetupState): boolean {
  return state.isIssueSecretCard && state.isIssueSuperAdminCard;
}

/** The card management tables' entry check (card management calls take either token; docs/cards.md issue 14). */
function cardTableRedirect(screen: 'adminCards' | 'keyCards', state: GateSetupState, hasMasterToken: boolean, signedIn: boolean): string | null {
  const mayManage = hasMasterToken || signedIn;
  // the key card table recovers a system key the server cannot open
  if (state.isInit && mayManage && (state.hasSecret || screen === 'keyCards')) return null;
  if (state.isInit && state.hasSecret) return managementMasterCardPaths[screen];
  const family: GateFamily = screen === 'keyCards' ? 'keyCard' : 'plain';
  return gateStepPathsOf[family][firstMissingStep(state, hasMasterToken)];
}

/**
 * Where a card screen sends the operator before showing anything: /login outside gate deployments (system
 * type 21–29), else the first missing step of the screen's family unless the screen is that step or may be used
 * at this stage. `signedIn`: an access token is stored (card management also takes a system administrator's
 * session). null: stay.
 */
export function gateEntryRedirect(
  screen: GateScreen,
  mjSystem: number,
  state: GateSetupState | null,
  hasMasterToken: boolean,
  signedIn = false,
  family: GateFamily = 'plain',
): string | null {
  if (!isGateSystem(mjSystem)) return '/login';
  if (screen === 'selectFunc' || state === null) return null;
  if (screen === 'adminCards' || screen === 'keyCards') return cardTableRedirect(screen, state, hasMasterToken, signedIn);
  const paths = gateStepPathsOf[family];
  const missing = firstMissingStep(state, hasMasterToken);
  const stay =
    (screen === 'systemInit' && missing === 'systemInit') ||
    (screen === 'masterCard' && state.isInit && state.hasSecret) ||
    (screen === 'keyCard' && missing === 'keyCard') ||
    (screen === 'superAdminCard' && missing === 'superAdminCard') ||
    (screen === 'login' && missing === 'login') ||
    (screen === 'reSwipe' && (missing === 'login' || missing === 'recoverSecret')) ||
    (screen === 'management' && state.isInit && state.hasSecret && hasMasterToken);
  if (stay) return null;
  if (screen === 'management' && state.isInit && state.hasSecret) return paths.masterCard;
  return paths[missing];
}

/**
 * Where the mother-card swipe goes on (spec §4): the next set-up step of its family, else that family's card
 * management table (/system-keycard for the key-card family).
 */
export function afterMasterCard(state: GateSetupState, family: GateFamily): string {
  const missing = firstMissingStep(state, true);
  if (missing !== 'login') return gateStepPathsOf[family][missing];
  return managementTableOf[family];
}

/** Where reading the key card into the issuer again returns: the sign-in screen it was opened from, else /swipe-login. */
export function afterKeyReload(from: string | null): string {
  return cardLoginPaths.find((path) => path === from) ?? gateStepPaths.login;
}
