import { CardTrustError, classifyCard, normaliseFixedNo, openAdminCard, openSystemKeyCard, readHeader } from '@campus/card-crypto';
import type { CardClass, CardType } from '@campus/card-crypto';
import { readerCodes } from '@campus/contracts';
import type { CardOnReader } from './readers/card-reader.ts';
import { ReaderError } from './readers/card-reader.ts';

/** What the issuer holds in memory only: the system key (from Init) and the server it relays sign-ins to. */
export class IssuerSession {
  systemKey: Buffer | null = null;
  gateway: string | null = null;

  requireKey(): Buffer {
    if (!this.systemKey) throw new ReaderError(readerCodes.noSystemKey);
    return this.systemKey;
  }
}

/** The reader code of a card that failed a check of card-crypto. */
export function trustCode(error: unknown): never {
  if (!(error instanceof CardTrustError)) throw error;
  if (error.reason === 'wrongType') throw new ReaderError(readerCodes.wrongCardKind);
  if (error.reason === 'unknown') throw new ReaderError(readerCodes.unknownCard);
  if (error.reason === 'passwordWrong') throw new ReaderError(readerCodes.customerPasswordWrong);
  throw new ReaderError(readerCodes.keyMismatch);
}

/** A blank card that may be issued (spec §4 "check card"): final codes for every other card. */
export function requireBlank(card: CardOnReader, session: IssuerSession): void {
  const kind: CardClass = classifyCard(card.image);
  if (kind === 'blank') return;
  if (kind === 'unknown') throw new ReaderError(readerCodes.cardNotBlank);
  if (kind === 'mother') throw new ReaderError(readerCodes.wrongCardKind);
  // one of ours: issued already when it belongs to this installation (as far as the issuer can tell)
  const h = readHeader(card.image);
  const ours = session.systemKey !== null && h !== null && isOurs(card, kind, session.systemKey);
  throw new ReaderError(ours ? readerCodes.cardAlreadyIssued : readerCodes.cardNotBlank);
}

function isOurs(card: CardOnReader, kind: CardType, systemKey: Buffer): boolean {
  try {
    if (kind === 'adminLogin') openAdminCard(card.image, systemKey, card.fixedNo);
    else if (kind === 'systemKey') openSystemKeyCard(card.image, systemKey, card.fixedNo);
    else return false;
    return true;
  } catch {
    return false;
  }
}

/** The card on the reader must be the one named (990208 otherwise). */
export function requireFixedNo(card: CardOnReader, fixedNo: string): void {
  let wanted: string;
  try {
    wanted = normaliseFixedNo(fixedNo);
  } catch {
    throw new ReaderError(readerCodes.differentCard);
  }
  if (card.fixedNo !== wanted) throw new ReaderError(readerCodes.differentCard);
}

/** An image the server built must be of the type the call writes (a write cannot turn a card into another kind). */
export function requireImageType(image: Buffer, type: CardType): void {
  if (readHeader(image)?.type !== type) throw new ReaderError(readerCodes.wrongCardKind);
}

/** Opens an administrator login card of this installation on the reader. */
export function openOurAdminCard(card: CardOnReader, session: IssuerSession) {
  const kind = classifyCard(card.image);
  if (kind !== 'adminLogin') throw new ReaderError(kind === 'unknown' ? readerCodes.unknownCard : readerCodes.wrongCardKind);
  try {
    return openAdminCard(card.image, session.requireKey(), card.fixedNo);
  } catch (error) {
    return trustCode(error);
  }
}

/** Checks a system key card of this installation on the reader. */
export function openOurKeyCard(card: CardOnReader, session: IssuerSession) {
  const kind = classifyCard(card.image);
  if (kind !== 'systemKey') throw new ReaderError(kind === 'unknown' ? readerCodes.unknownCard : readerCodes.wrongCardKind);
  try {
    return openSystemKeyCard(card.image, session.requireKey(), card.fixedNo);
  } catch (error) {
    return trustCode(error);
  }
}

/**
 * Whether the card already holds `image`: a write retried after its answer was lost (990322, the card pulled off as
 * the write committed) is then done, whatever the checks before a first write would say of the card now.
 */
export function holdsImage(card: CardOnReader, image: Uint8Array): boolean {
  if (image.length > card.image.length) return false;
  const padded = Buffer.alloc(card.image.length);
  Buffer.from(image).copy(padded);
  return padded.equals(card.image);
}
