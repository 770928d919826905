/**
 * The change-password rules of spec §5, as pure functions. Each check answers null (fine) or a problem:
 * an i18n key of the `account` texts, or the server's own policy tip, shown as it came.
 */
export type RuleProblem = { key: RuleMessageKey } | { text: string };

export type RuleMessageKey =
  | 'account.originalRequired'
  | 'account.newRequired'
  | 'account.policyMismatch'
  | 'account.confirmRequired'
  | 'account.inconsistent';

/** The password policy as the dialog uses it: a regex to test (null: only "required") and the tip. */
export interface PasswordPolicy {
  pattern: RegExp | null;
  tip: string;
}

function base64ToUtf8(base64: string): string {
  const binary = atob(base64.trim());
  const bytes = Uint8Array.from(binary, (character) => character.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

/**
 * The server's regex, sent as base64 of a JavaScript regex source. A `/source/flags` literal is
 * accepted too. Absent, undecodable or invalid: null, so only the required check remains (never throws).
 */
export function decodePolicyRegex(base64: string | null | undefined): RegExp | null {
  if (typeof base64 !== 'string' || base64.trim() === '') return null;
  try {
    const source = base64ToUtf8(base64);
    if (source === '') return null;
    const literal = /^\/(.+)\/([dgimsuvy]*)$/s.exec(source);
    // g and y make test() stateful; a password check wants neither
    if (literal) return new RegExp(literal[1]!, literal[2]!.replace(/[gy]/g, ''));
    return new RegExp(source);
  } catch {
    return null;
  }
}

/** Builds the policy from GetLoginPassordComplexity's answer (or nothing while it loads). */
export function policyFrom(complexity: { regex?: string | null; tip?: string | null } | null | undefined): PasswordPolicy {
  return { pattern: decodePolicyRegex(complexity?.regex), tip: complexity?.tip ?? '' };
}

function isEmpty(value: string | null | undefined): boolean {
  return value === undefined || value === null || value === '';
}

/** Original password: required. */
export function checkOriginal(value: string | null | undefined): RuleProblem | null {
  return isEmpty(value) ? { key: 'account.originalRequired' } : null;
}

/** New password: required, then the server's regex; on a mismatch the server's tip. */
export function checkNewPassword(value: string | null | undefined, policy: PasswordPolicy): RuleProblem | null {
  if (isEmpty(value)) return { key: 'account.newRequired' };
  if (policy.pattern && !policy.pattern.test(value!)) {
    // a server without a tip still gets a message
    return policy.tip.trim() ? { text: policy.tip } : { key: 'account.policyMismatch' };
  }
  return null;
}

/** Confirm: required, and equal to the new password. */
export function checkConfirm(value: string | null | undefined, newPassword: string | null | undefined): RuleProblem | null {
  if (isEmpty(value)) return { key: 'account.confirmRequired' };
  if (value !== (newPassword ?? '')) return { key: 'account.inconsistent' };
  return null;
}

/** The text of a problem in the current language. */
export function problemText(problem: RuleProblem, t: (key: RuleMessageKey) => string): string {
  return 'text' in problem ? problem.text : t(problem.key);
}
