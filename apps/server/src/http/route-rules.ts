import { apiPaths, codes } from '@campus/contracts';
import { AppError } from './envelope.ts';
import type { SessionInfo } from './types.ts';

/**
 * The rules the shell shows after sign-in, kept by the server on every route that needs a session
 * (DESIGN §5): each rule lists the only calls a session under it may still make. A route added later is
 * refused under a rule until it is listed here (test/licence/api-route-rules.test.ts walks every registered route).
 */

export type RouteKey = `${'GET' | 'POST'} ${string}`;

export function routeKey(method: string, url: string): string {
  return `${method} ${url}`;
}

/** What the shell needs to draw its frame, show a prompt and sign out: allowed under every rule. */
const shellFrame: readonly RouteKey[] = [
  `GET ${apiPaths.userDetail}`,
  `GET ${apiPaths.userSettings}`,
  // the language picker sits in the frame: its choice is kept under every rule
  `POST ${apiPaths.saveUserSettings}`,
  `GET ${apiPaths.licencePermission}`,
  `GET ${apiPaths.menus}`,
  `GET ${apiPaths.permissions}`,
  `GET ${apiPaths.languages}`,
  `GET ${apiPaths.systemLogos}`,
  `GET ${apiPaths.subAppRegistry}`,
  `GET ${apiPaths.subAppDevOverrides}`,
  `GET ${apiPaths.accountTenants}`,
  `POST ${apiPaths.logout}`,
];

/** A session whose password must be changed (spec §4 forced cases): the frame and the Change Password dialog. */
export const passwordChangeRule: ReadonlySet<string> = new Set<RouteKey>([
  ...shellFrame,
  `GET ${apiPaths.passwordComplexity}`,
  `POST ${apiPaths.changePassword}`,
]);

/** An installation without a valid licence, for everybody: the frame and the licence prompt. */
export const licenceRule: ReadonlySet<string> = new Set<RouteKey>(shellFrame);

/** An installation without a valid licence, for system administrators also (spec §4: upload, activate, trial, About). */
export const licenceRuleForAdministrators: ReadonlySet<string> = new Set<RouteKey>([
  ...shellFrame,
  `POST ${apiPaths.licenceUpload}`,
  `POST ${apiPaths.licenceDetail}`,
  `POST ${apiPaths.licenceOldDetail}`,
  `POST ${apiPaths.licenceActivate}`,
  `POST ${apiPaths.licenceAppList}`,
  `POST ${apiPaths.licenceSearch}`,
  `POST ${apiPaths.licenceCurrentDetail}`,
  `POST ${apiPaths.addTrialLicence}`,
  `GET ${apiPaths.customerInfo}`,
  `GET ${apiPaths.versionList}`,
]);

export interface RuleGateDeps {
  /** Given the session (and what was read with it: the licences' change stamp, the installation's clock). */
  licenceIsNormal: (session: SessionInfo) => Promise<boolean>;
  isSystemAdmin: (userId: string) => Promise<boolean>;
}

export type RuleGate = (session: SessionInfo, route: string) => Promise<void>;

/**
 * Refuses a call that a rule in force does not list: HTTP 403 with licenceRequired (192) while the
 * installation has no valid licence, or passwordChangeRequired (191) while the password must be changed.
 * As in the shell (spec §4), the forced change applies only on a normal licence: the licence comes first.
 */
export function makeRuleGate(deps: RuleGateDeps): RuleGate {
  return async (session, route) => {
    if (passwordChangeRule.has(route) && licenceRule.has(route)) return;
    const licenceNormal = await deps.licenceIsNormal(session);
    if (!licenceNormal) {
      if (licenceRule.has(route)) return;
      if (licenceRuleForAdministrators.has(route) && (await deps.isSystemAdmin(session.userId))) return;
      throw new AppError(codes.licenceRequired, { status: 403 });
    }
    if (session.passwordChangeRequired && !passwordChangeRule.has(route)) {
      throw new AppError(codes.passwordChangeRequired, { status: 403 });
    }
  };
}
