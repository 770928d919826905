/** Gate deployments (system type 21 to 29) use national cryptography (spec §1, DESIGN §7). */
export function isGateSystem(mjSystem: number): boolean {
  return Number.isInteger(mjSystem) && mjSystem >= 21 && mjSystem <= 29;
}

/** The password digest algorithm of a deployment. */
export type DigestMode = 'sha256' | 'sm3';

export function digestModeFor(mjSystem: number): DigestMode {
  return isGateSystem(mjSystem) ? 'sm3' : 'sha256';
}

/** A password digest as the browser sends it: 64 lowercase hex digits. */
export const passwordDigestPattern = '^[0-9a-f]{64}$';
