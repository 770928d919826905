import { shellVersion } from './shell-constants.ts';

/**
 * The oldest card issuer this server works with (docs/operator-pc.md "Versions"). An issuer names its version (the
 * shellVersion of the build it came from) in its pairing reply; one that names none is from 3.6.0.26112601 or
 * before and lacks SignKeyChallenge, without which no server of today hands out the system key. Raise this when
 * the server starts to need an issuer call that older issuers lack.
 */
export const minimumIssuerVersion = '3.6.0';

/**
 * What the shell makes of the issuer's version at pairing: `fits` (as new as the server, or newer), `older` (older
 * than the server but not below minimumIssuerVersion: card operations go on, with a warning), `tooOld` (below it,
 * or no version at all: card operations are blocked). The server's own card checks (the signed key challenge, the
 * card images) hold whatever the shell decides: this is the operator's explanation, not a security check.
 */
export type IssuerVersionVerdict =
  | { kind: 'fits'; issuerVersion: string }
  | { kind: 'older'; issuerVersion: string }
  | { kind: 'tooOld'; issuerVersion: string | null };

const versionPattern = /^\d{1,10}(\.\d{1,10}){1,3}$/;

/** Compares dotted versions part by part as numbers (a missing part is 0): negative when a is older. */
export function compareVersions(a: string, b: string): number {
  const left = a.split('.').map(Number);
  const right = b.split('.').map(Number);
  for (let i = 0; i < Math.max(left.length, right.length); i += 1) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** The verdict on the version an issuer's pairing reply named (anything but a dotted version counts as none). */
export function judgeIssuerVersion(reported: unknown, serverVersion: string = shellVersion): IssuerVersionVerdict {
  if (typeof reported !== 'string' || !versionPattern.test(reported)) return { kind: 'tooOld', issuerVersion: null };
  if (compareVersions(reported, minimumIssuerVersion) < 0) return { kind: 'tooOld', issuerVersion: reported };
  return { kind: compareVersions(reported, serverVersion) < 0 ? 'older' : 'fits', issuerVersion: reported };
}
