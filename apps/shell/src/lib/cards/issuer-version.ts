import type { IssuerVersionVerdict } from '@campus/contracts';
import { minimumIssuerVersion, shellVersion } from '@campus/contracts';
import { i18n } from '../i18n.ts';

/** The version of the issuer last paired with, when it is older than this server but still works with it. */
let olderIssuer: string | null = null;
const listeners = new Set<() => void>();

/** Keeps what the last pairing found out about the issuer's version, for the card screens' warning. */
export function noteIssuerVersion(verdict: IssuerVersionVerdict): void {
  const next = verdict.kind === 'older' ? verdict.issuerVersion : null;
  if (next === olderIssuer) return;
  olderIssuer = next;
  for (const listener of listeners) listener();
}

/** The older issuer's version (card operations go on, with a warning), or null. */
export function olderIssuerVersion(): string | null {
  return olderIssuer;
}

export function subscribeIssuerVersion(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Why card operations are blocked: the PC's issuer version (or that it names none), the server's and the oldest one it takes. */
export function issuerTooOldMessage(issuerVersion: string | null): string {
  const values = { issuer: issuerVersion ?? '', server: shellVersion, minimum: minimumIssuerVersion };
  return issuerVersion === null ? i18n.t('cardReader.issuerUnversioned', values) : i18n.t('cardReader.issuerTooOld', values);
}
