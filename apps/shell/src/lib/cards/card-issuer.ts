import type { Envelope, LanguageCode, ReaderCode } from '@campus/contracts';
import { cardDeviceTokenHeader, cardIssuerPaths, isSuccessCode, judgeIssuerVersion, localDeviceServicePort, readerCodeMessages, readerCodes, requestTimeoutMs } from '@campus/contracts';
import { currentLanguage, i18n } from '../i18n.ts';
import { issuerTooOldMessage, noteIssuerVersion } from './issuer-version.ts';
import { fetchTenantSettings } from '../session.ts';
import * as storage from '../storage.ts';

/** Why a call of the card issuer failed. */
export type IssuerFailureKind =
  /** The issuer does not answer: not installed, not started, or another address (spec §8 'card reader not installed or configured'). */
  | 'notInstalled'
  /** The issuer answered with a failure code (a reader code 990xxx, or a server code it relayed). */
  | 'failed'
  /** The issuer is older than this server works with (contracts minimumIssuerVersion): card operations are blocked. */
  | 'outdated';

export class IssuerError extends Error {
  constructor(
    readonly kind: IssuerFailureKind,
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'IssuerError';
  }
}

/** The issuer's address: tenant settings (CARD_ISSUER_URL), else the spec's default port on this PC. */
export function issuerBaseUrl(): string {
  const configured = storage.tenantSettings.get()?.cardIssuerUrl?.trim();
  return (configured || `http://127.0.0.1:${localDeviceServicePort}`).replace(/\/+$/, '');
}

/**
 * Reads the tenant settings again, for a page opened before the issuer's address changed (the server moved to
 * another CARD_ISSUER_PORT): the next call goes to the address named now, pairing there first.
 */
export async function rereadIssuerAddress(): Promise<void> {
  const before = issuerBaseUrl();
  await fetchTenantSettings(currentLanguage());
  if (issuerBaseUrl() !== before) forgetPairing();
}

/** The message of a failure code: the reader's own (990xxx) in the current language, else what the issuer said. */
export function readerMessage(code: number, fallback: string, language: LanguageCode = currentLanguage()): string {
  const known = readerCodeMessages[code as ReaderCode];
  return known ? known[language] : fallback || i18n.t('request.internalError');
}

export type Fetcher = typeof fetch;
let fetcher: Fetcher = (...args) => fetch(...args);
/** For tests: replace fetch. */
export function setIssuerFetch(next: Fetcher): void {
  fetcher = next;
}

let paired = false;
/** For tests and after an issuer restart: pair again before the next card call. */
export function forgetPairing(): void {
  paired = false;
}

async function post<T>(path: string, body: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetcher(`${issuerBaseUrl()}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [cardDeviceTokenHeader]: storage.cardDeviceToken.get(), language: currentLanguage() },
      body: JSON.stringify(body ?? {}),
      signal: AbortSignal.timeout(requestTimeoutMs),
    });
  } catch {
    throw new IssuerError('notInstalled', 0, i18n.t('cardReader.notInstalled'));
  }
  let envelope: Envelope<T> | null = null;
  try {
    envelope = (await response.json()) as Envelope<T>;
  } catch {
    envelope = null;
  }
  if (!envelope || typeof envelope.code !== 'number') throw new IssuerError('notInstalled', 0, i18n.t('cardReader.notInstalled'));
  if (!isSuccessCode(envelope.code)) throw new IssuerError('failed', envelope.code, readerMessage(envelope.code, envelope.msg));
  return envelope.data;
}

export interface PairedIssuer {
  deviceId: string;
  devicePublicKey: string;
  readerName: string;
  /** The issuer's version; an issuer of 3.6.0.26112601 or before names none. */
  issuerVersion?: string;
}

let lastPairing: PairedIssuer | null = null;

/**
 * Pairs this browser session with the issuer and makes it the one operating the reader (AddIdentity, SwitchIdentity).
 * An issuer too old for this server is not switched to: the pairing fails with the versions and what to do.
 */
export async function pairIssuer(): Promise<PairedIssuer> {
  const token = storage.cardDeviceToken.get();
  const pairing = await post<PairedIssuer>(cardIssuerPaths.addIdentity, { cardDeviceToken: token });
  // a reply without data is no issuer of today either
  const verdict = judgeIssuerVersion((pairing as PairedIssuer | null)?.issuerVersion);
  noteIssuerVersion(verdict);
  if (verdict.kind === 'tooOld') {
    paired = false;
    throw new IssuerError('outdated', 0, issuerTooOldMessage(verdict.issuerVersion));
  }
  await post(cardIssuerPaths.switchIdentity, { cardDeviceToken: token });
  paired = true;
  lastPairing = pairing;
  return pairing;
}

/**
 * A card call of the issuer, pairing first when this page has not: a pairing the issuer forgot (it was
 * restarted: 990209) is made again once.
 */
export async function issuerCall<T>(path: string, body: unknown = {}): Promise<T> {
  if (!paired) await pairIssuer();
  try {
    return await post<T>(path, body);
  } catch (error) {
    if (error instanceof IssuerError && error.code === readerCodes.notPaired) {
      await pairIssuer();
      return post<T>(path, body);
    }
    throw error;
  }
}

/** The issuer's public key, pairing when needed (GetSysKeyData seals the system key to it). */
export async function issuerPublicKey(): Promise<string> {
  if (!paired || !lastPairing) await pairIssuer();
  return lastPairing!.devicePublicKey;
}
