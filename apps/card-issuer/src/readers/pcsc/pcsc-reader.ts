import { cardImageSize, classifyCard, normaliseFixedNo } from '@campus/card-crypto';
import type { CardClass } from '@campus/card-crypto';
import { readerCodes } from '@campus/contracts';
import type { CardOnReader, CardReader, ReaderStatus } from '../card-reader.ts';
import { ReaderError } from '../card-reader.ts';
import type { CardAnswer } from './apdu.ts';
import { chunkSize, createTransparentFile, gdoFileId, getUid, masterFileId, parseAnswer, readBinary, selectFile, serialFromGdo, statusWords, updateBinary } from './apdu.ts';
import { cardFileSize, decodeCardFile, planWrite } from './card-file-layout.ts';
import type { PcscBinding, PcscCard, PcscContext, PcscReaderHandle } from './pcsc-binding.ts';
import type { Phase } from './pcsc-problems.ts';
import { classifyPcscFailure } from './pcsc-errors.ts';
import { interrupted, pcscProblems } from './pcsc-problems.ts';

export interface PcscReaderOptions {
  binding: PcscBinding;
  /** CARD_READER_NAME: the reader to use (its full name, or the start of it); null for the first one. */
  readerName: string | null;
  /** CARD_FILE_ID: the transparent elementary file that holds the card's image. */
  fileId: number;
  /** Called before every UPDATE BINARY of a write, with its phase: the tests pull the card off here. */
  beforeUpdate?: (phase: Phase, index: number) => void | Promise<void>;
}

/** One reader as the panel shows it. */
export interface PcscReaderView {
  name: string;
  used: boolean;
  card: 'present' | 'empty' | 'mute';
  atr: string | null;
  /** What the issuer last read from the card now on this reader, if it has read it since it was placed. */
  known: { fixedNo: string; kind: CardClass } | null;
}

const accessRefused = new Set<number>([statusWords.securityNotSatisfied, statusWords.conditionsNotSatisfied, statusWords.commandNotAllowed]);
/** How many times (100 ms apart) a failed command asks pcscd whether the card is still there. */
const failureSettleLooks = 10;
const hex4 = (id: number) => id.toString(16).toUpperCase().padStart(4, '0');

/**
 * The PC/SC driver (CARD_READER=pcsc; docs/cards.md "Real cards"): any reader pcscd knows, any ISO 7816 card whose
 * transparent file CARD_FILE_ID holds at least cardFileSize bytes. The card's fixed number is the ICC serial number
 * of its EF.GDO, or else the UID a contactless reader reports. Every operation connects to the card alone, does
 * its commands and lets it go; nothing is kept between operations but the context with pcscd (made again after
 * pcscd restarts) and what the last read found, for the panel.
 */
export class PcscReader implements CardReader {
  private context: PcscContext | null = null;
  /** Cleared when a card refuses UPDATE BINARY with an Le byte (6700): the plain form is sent from then on. */
  private updateWithLe = true;
  /** The card read last, by reader and pcscd's event count (which moves on every insertion and removal). */
  private lastSeen: { reader: string; events: number; fixedNo: string; kind: CardClass } | null = null;
  private readonly fileName: string;

  constructor(private readonly options: PcscReaderOptions) {
    this.fileName = hex4(options.fileId);
  }

  // ---- readers ----

  private readers(): PcscReaderHandle[] {
    for (let attempt = 0; ; attempt += 1) {
      try {
        if (!this.context || !this.context.isValid) this.context = this.options.binding.newContext();
        return this.context.listReaders();
      } catch {
        this.dropContext();
        // a context made before pcscd restarted is dead: one new context, then the service is down
        if (attempt >= 1) throw new ReaderError(readerCodes.readerNotConnected, pcscProblems.serviceDown());
      }
    }
  }

  private chosen(readers: PcscReaderHandle[]): PcscReaderHandle | undefined {
    const wanted = this.options.readerName;
    if (wanted === null) return readers[0];
    return readers.find((r) => r.name === wanted) ?? readers.find((r) => r.name.startsWith(wanted));
  }

  private reader(): PcscReaderHandle {
    const readers = this.readers();
    const reader = this.chosen(readers);
    if (reader) return reader;
    const wanted = this.options.readerName;
    throw new ReaderError(readerCodes.readerNotConnected, wanted === null ? pcscProblems.noReaders() : pcscProblems.readerMissing(wanted));
  }

  private dropContext(): void {
    try {
      this.context?.close();
    } catch {
      // a context of a stopped pcscd cannot be closed: it is dropped all the same
    }
    this.context = null;
  }

  /** The readers pcscd sees (the panel); 990361 when pcscd is not running. */
  view(): PcscReaderView[] {
    const readers = this.readers();
    const used = this.chosen(readers);
    const { statePresent, stateMute } = this.options.binding;
    return readers.map((r) => {
      const present = (r.state & statePresent) !== 0;
      const seen = this.lastSeen;
      return {
        name: r.name,
        used: r === used,
        card: !present ? 'empty' : (r.state & stateMute) !== 0 ? 'mute' : 'present',
        atr: present && r.atr ? r.atr.toString('hex').toUpperCase() : null,
        known: present && seen && seen.reader === r.name && seen.events === r.state >>> 16 ? { fixedNo: seen.fixedNo, kind: seen.kind } : null,
      };
    });
  }

  // ---- one operation on the card ----

  private async withCard<T>(work: (session: CardSession) => Promise<T>): Promise<T> {
    const reader = this.reader();
    if ((reader.state & this.options.binding.statePresent) === 0) throw new ReaderError(readerCodes.noCard);
    let card: PcscCard;
    try {
      card = await reader.connect(this.options.binding.shareExclusive, this.options.binding.anyProtocol);
    } catch (error) {
      throw await this.failure(error, 'reading');
    }
    const session = new CardSession(card, (error, phase) => this.failure(error, phase));
    try {
      return await work(session);
    } finally {
      try {
        card.disconnect(this.options.binding.leaveCard);
      } catch {
        // the card or pcscd is gone already
      }
    }
  }

  /** The reader code of a failed PC/SC call, from the binding's error and, when that says little, the reader's state. */
  private async failure(error: unknown, phase: Phase): Promise<ReaderError> {
    if (error instanceof ReaderError) return error;
    const kind = classifyPcscFailure(error);
    if (kind === 'busy') return new ReaderError(readerCodes.readerBusy);
    if (kind === 'card') return interrupted(phase, pcscProblems.cardRemoved());
    // "transaction failed" and the like: pcscd may take a moment to see that the card, the reader or it is gone
    for (let look = 0; ; look += 1) {
      let reader: PcscReaderHandle;
      try {
        reader = this.reader();
      } catch (gone) {
        return gone as ReaderError; // pcscd stopped or the reader unplugged
      }
      if ((reader.state & this.options.binding.statePresent) === 0) return interrupted(phase, pcscProblems.cardRemoved());
      if (look >= failureSettleLooks) return interrupted(phase, pcscProblems.cardMute());
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  private async fixedNumber(session: CardSession): Promise<string> {
    const gdo = await session.send(selectFile(gdoFileId), 'reading');
    if (gdo.sw === statusWords.ok) {
      const content = await session.send(readBinary(0, 256), 'reading');
      const serial = content.sw === statusWords.ok || content.sw === statusWords.endOfFile ? serialFromGdo(content.data) : null;
      if (serial !== null && serial.length >= 8 && serial.length <= 20) return serial;
    }
    const uid = await session.send(getUid(), 'reading');
    if (uid.sw === statusWords.ok && uid.data.length >= 4 && uid.data.length <= 10) return uid.data.toString('hex').toUpperCase();
    throw new ReaderError(readerCodes.unknownCard, pcscProblems.noFixedNumber());
  }

  private async selectDataFile(session: CardSession, phase: Phase): Promise<void> {
    const answer = await session.send(selectFile(this.options.fileId), phase);
    if (answer.sw === statusWords.fileNotFound) throw new ReaderError(readerCodes.unknownCard, pcscProblems.noDataFile(this.fileName));
    if (answer.sw !== statusWords.ok) throw new ReaderError(readerCodes.unknownCard, pcscProblems.unexpectedStatus(`SELECT ${this.fileName}`, answer.sw));
  }

  /** `length` bytes of the selected data file from `offset`, chunk by chunk. */
  private async readRange(session: CardSession, offset: number, length: number, phase: Phase): Promise<Buffer> {
    const parts: Buffer[] = [];
    let at = offset;
    while (at < offset + length) {
      const want = Math.min(chunkSize, offset + length - at);
      let answer = await session.send(readBinary(at, want), phase);
      if (answer.sw >> 8 === 0x6c) answer = await session.send(readBinary(at, answer.sw & 0xff || 256), phase);
      if (answer.sw === statusWords.ok || answer.sw === statusWords.endOfFile) {
        const got = answer.data.subarray(0, want);
        parts.push(got);
        at += got.length;
        if (got.length === 0 || (answer.sw === statusWords.endOfFile && at < offset + length)) throw this.tooShort(at);
        continue;
      }
      if (answer.sw === statusWords.wrongOffset) throw this.tooShort(at);
      if (answer.sw === statusWords.incompatibleWithFile) throw new ReaderError(readerCodes.unknownCard, pcscProblems.notTransparent(this.fileName));
      if (accessRefused.has(answer.sw)) throw new ReaderError(readerCodes.unknownCard, pcscProblems.accessRefused(this.fileName, answer.sw));
      throw new ReaderError(readerCodes.unknownCard, pcscProblems.unexpectedStatus('READ BINARY', answer.sw));
    }
    return Buffer.concat(parts);
  }

  private tooShort(size: number): ReaderError {
    return new ReaderError(readerCodes.unknownCard, pcscProblems.fileTooShort(this.fileName, size, cardFileSize));
  }

  private async update(session: CardSession, offset: number, data: Buffer, phase: Phase, index: number): Promise<void> {
    await this.options.beforeUpdate?.(phase, index);
    let answer = await session.send(updateBinary(offset, data, this.updateWithLe), phase);
    if (answer.sw === statusWords.wrongLength && this.updateWithLe) {
      this.updateWithLe = false;
      answer = await session.send(updateBinary(offset, data, false), phase);
    }
    // 6282 is vicc's answer to an update that landed; every write is read back before it counts
    if (answer.sw === statusWords.ok || answer.sw === statusWords.endOfFile) return;
    if (accessRefused.has(answer.sw)) throw new ReaderError(readerCodes.unknownCard, pcscProblems.accessRefused(this.fileName, answer.sw));
    throw new ReaderError(readerCodes.unknownCard, pcscProblems.unexpectedStatus('UPDATE BINARY', answer.sw));
  }

  private async readCard(session: CardSession): Promise<CardOnReader & { file: ReturnType<typeof decodeCardFile> }> {
    const fixedNo = await this.fixedNumber(session);
    await this.selectDataFile(session, 'reading');
    const file = decodeCardFile(await this.readRange(session, 0, cardFileSize, 'reading'));
    return { fixedNo, image: file.image, file };
  }

  private remember(fixedNo: string, image: Buffer): void {
    try {
      const reader = this.reader();
      this.lastSeen = { reader: reader.name, events: reader.state >>> 16, fixedNo, kind: classifyCard(image) };
    } catch {
      this.lastSeen = null;
    }
  }

  // ---- CardReader ----

  async status(): Promise<ReaderStatus> {
    try {
      const used = this.view().find((r) => r.used);
      return { connected: used !== undefined, readerName: used?.name ?? '', card: used?.known ? { fixedNo: used.known.fixedNo } : null };
    } catch {
      return { connected: false, readerName: '', card: null };
    }
  }

  async read(): Promise<CardOnReader> {
    const { fixedNo, image } = await this.withCard((session) => this.readCard(session));
    this.remember(fixedNo, image);
    return { fixedNo, image };
  }

  async write(fixedNo: string, image: Uint8Array): Promise<void> {
    const target = normaliseFixedNo(fixedNo);
    if (image.length > cardImageSize) throw new RangeError(`a card holds ${cardImageSize} bytes, not ${image.length}`);
    const written = await this.withCard(async (session) => {
      const card = await this.readCard(session);
      if (card.fixedNo !== target) throw new ReaderError(readerCodes.differentCard);
      const plan = planWrite(card.file, image);
      if (card.image.equals(plan.image)) return plan.image; // the card holds it already (a retry after a lost answer)
      let index = 0;
      for (let at = 0; at < plan.image.length; at += chunkSize) {
        await this.update(session, plan.imageOffset + at, plan.image.subarray(at, at + chunkSize), 'writing', index++);
      }
      if (!(await this.readRange(session, plan.imageOffset, plan.image.length, 'writing')).equals(plan.image)) {
        throw new ReaderError(readerCodes.writeInterruptedBeforeChange, pcscProblems.notKept(this.fileName));
      }
      await this.update(session, plan.headerOffset, plan.header, 'committing', index);
      const after = decodeCardFile(await this.readRange(session, 0, cardFileSize, 'committing'));
      if (after.slot !== plan.slot || !after.image.equals(plan.image)) throw new ReaderError(readerCodes.writeInterruptedWhileCommitting, pcscProblems.notKept(this.fileName));
      return plan.image;
    });
    this.remember(target, written);
  }

  /**
   * Makes the data file on a card that has none (`npm run card -- pcsc-format`): CREATE FILE under the master file.
   * Answers false when the card has it already.
   */
  async format(): Promise<boolean> {
    return this.withCard(async (session) => {
      await session.send(selectFile(masterFileId), 'reading');
      const existing = await session.send(selectFile(this.options.fileId), 'reading');
      if (existing.sw === statusWords.ok) {
        await this.readRange(session, 0, cardFileSize, 'reading'); // a file too short or of another structure says so
        return false;
      }
      await session.send(selectFile(masterFileId), 'reading');
      const created = await session.send(createTransparentFile(this.options.fileId, cardFileSize), 'writing');
      if (created.sw !== statusWords.ok) throw new ReaderError(readerCodes.unknownCard, pcscProblems.unexpectedStatus('CREATE FILE', created.sw));
      await this.selectDataFile(session, 'reading');
      await this.readRange(session, 0, cardFileSize, 'reading');
      return true;
    });
  }

  async close(): Promise<void> {
    this.dropContext();
  }
}

/** One connection to a card: every command answers a status word, or fails as the reader code of its phase. */
class CardSession {
  constructor(
    private readonly card: PcscCard,
    private readonly failure: (error: unknown, phase: Phase) => Promise<ReaderError>,
  ) {}

  async send(command: Buffer, phase: Phase): Promise<CardAnswer> {
    let raw: Buffer;
    try {
      raw = await this.card.transmit(command, { maxRecvLength: 258 });
    } catch (error) {
      throw await this.failure(error, phase);
    }
    const answer = parseAnswer(raw);
    // an answer without a status word: the card went silent mid-command
    if (!answer) throw await this.failure(new Error('an answer without a status word'), phase);
    return answer;
  }
}
