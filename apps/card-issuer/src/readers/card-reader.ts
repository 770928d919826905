import type { LanguageCode, Localised, ReaderCode } from '@campus/contracts';
import { readerCodeMessage } from '@campus/contracts';

/** A card on the reader: its fixed number (UID, upper-case hex) and the bytes it holds (at most 256). */
export interface CardOnReader {
  fixedNo: string;
  image: Buffer;
}

export interface ReaderStatus {
  connected: boolean;
  readerName: string;
  card: { fixedNo: string } | null;
}

/**
 * What the card issuer needs of a reader driver (docs/cards.md). Every failure is a ReaderError with its
 * reader code; a write is all or nothing: after any failure the card holds exactly what it held before.
 */
export interface CardReader {
  status(): Promise<ReaderStatus>;
  /** The card on the reader; 990481 when there is none. */
  read(): Promise<CardOnReader>;
  /** Replaces the image of the card `fixedNo`; 990481 without a card, 990208 when another card is on the reader. */
  write(fixedNo: string, image: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

/** A reader failure: its code (spec §4, §8) and, where the code alone does not say what to do, why (three languages). */
export class ReaderError extends Error {
  constructor(
    readonly code: ReaderCode,
    readonly detail: Localised | null = null,
  ) {
    super('');
    this.name = 'ReaderError';
    this.message = this.messageIn('en-US');
  }

  /** The failure as the operator reads it: the code's message, then why. */
  messageIn(language: LanguageCode): string {
    const msg = readerCodeMessage(this.code, language);
    if (!this.detail) return msg;
    return language === 'en-US' ? `${msg}; ${this.detail[language]}` : `${msg}；${this.detail[language]}`;
  }
}
