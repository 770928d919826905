import type { GateSetupState } from '@campus/contracts';
import { isGateSystem } from '@campus/contracts';

/** The steps of spec §4 "Gate set-up order", then the card sign-in they lead to. */
export type GateStep = 'systemInit' | 'recoverSecret' | 'masterCard' | 'keyCard' | 'superAdminCard' | 'login';

export const gateStepPaths: Record<GateStep, string> = {
  systemInit: '/system-init',
  recoverSecret: '/re-swipe-sys-sceret',
  masterCard: '/swipe-master-card-gm',
  keyCard: '/swiper-sys-secret',
  superAdminCard: '/create-superuser',
  login: '/swipe-login',
};

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
  adminCards: gateStepPaths.masterCard,
  keyCards: '/key-card-swipe-master-card-gm',
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

/** The card management tables' entry check (card management calls take either token; docs/cards.md issue 14). */
function cardTableRedirect(screen: 'adminCards' | 'keyCards', state: GateSetupState, hasMasterToken: boolean, signedIn: boolean): string | null {
  const mayManage = hasMasterToken || signedIn;
  // the key card table recovers a system key the server cannot open
  if (state.isInit && mayManage && (state.hasSecret || screen === 'keyCards')) return null;
  if (state.isInit && state.hasSecret) return managementMasterCardPaths[screen];
  return gateStepPaths[firstMissingStep(state, hasMasterToken)];
}

/**
 * Where a card screen sends the operator before showing anything: /login outside gate deployments (system
 * type 21–29), else the first missing step unless the screen is that step or may be used at this stage.
 * `signedIn`: an access token is stored (card management also takes a system administrator's session).
 * null: stay.
 */
export function gateEntryRedirect(screen: GateScreen, mjSystem: number, state: GateSetupState | null, hasMasterToken: boolean, signedIn = false): string | null {
  if (!isGateSystem(mjSystem)) return '/login';
  if (screen === 'selectFunc' || state === null) return null;
  if (screen === 'adminCards' || screen === 'keyCards') return cardTableRedirect(screen, state, hasMasterToken, signedIn);
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
  if (screen === 'management' && state.isInit && state.hasSecret) return gateStepPaths.masterCard;
  return gateStepPaths[missing];
}

/** Where the mother-card swipe goes on: the next set-up step, else the card management of its variant. */
export function afterMasterCard(state: GateSetupState, keyCardVariant: boolean): string {
  const missing = firstMissingStep(state, true);
  if (missing !== 'login') return gateStepPaths[missing];
  return keyCardVariant ? '/system-keycard' : '/systemadmin-logincard';
}
