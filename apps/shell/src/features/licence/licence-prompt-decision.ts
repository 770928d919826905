import type { LicenceCondition, LicencePermission } from '@campus/contracts';
import { licenceCondition } from '@campus/contracts';

/** The links a licence prompt offers (spec §6 "Licence prompt links"); 'Return to login' is always there. */
export interface LicencePromptLinks {
  /** isViewPermission: About System on its Licenses tab. */
  view: boolean;
  /** isAddTrialPermission: Register Trial Licence. */
  trial: boolean;
  /** isAddOfficialPermission: the upload dialog. */
  formal: boolean;
}

export type PromptCondition = Exclude<LicenceCondition, 'normal'>;

export type LicencePromptDecision =
  /** A user who is not a system administrator: no valid licence, contact the administrator (spec §6, §8). */
  | { kind: 'employee' }
  /** licenseType 1 without view permission: 'Authorization tampered' as an error dialog (spec §4). */
  | { kind: 'tampered' }
  /** A system administrator: the text of the condition and the links the permissions allow. */
  | { kind: 'prompt'; condition: PromptCondition; links: LicencePromptLinks };

/**
 * Which licence prompt to show after a sign-in whose licence check was not normal (spec §4 "Licence
 * prompt", §6, §8), or null when the licence is normal. Every prompt also offers 'Return to login'.
 */
export function decideLicencePrompt(permission: LicencePermission): LicencePromptDecision | null {
  const condition = licenceCondition(permission);
  if (condition === 'normal') return null;
  // spec §4 names this case outright, so it comes before the employee's general dialog of §6
  if (condition === 'tampered' && !permission.isViewPermission) return { kind: 'tampered' };
  if (!permission.isSystemAdmin) return { kind: 'employee' };
  return {
    kind: 'prompt',
    // tampered with view permission reads as a failed check (spec §4: licenseType 1 or state 4)
    condition: condition === 'tampered' ? 'failedCheck' : condition,
    links: {
      view: permission.isViewPermission,
      trial: permission.isAddTrialPermission,
      formal: permission.isAddOfficialPermission,
    },
  };
}

/** The i18n key of a prompt's text. */
export function promptTextKey(condition: PromptCondition): string {
  return `licence.prompt.${condition}`;
}
