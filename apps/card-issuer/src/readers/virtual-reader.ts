import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Localised, ReaderCode } from '@campus/contracts';
import { readerCodes } from '@campus/contracts';
import { cardImageSize, classifyCard, normaliseFixedNo } from '@campus/card-crypto';
import type { CardClass } from '@campus/card-crypto';
import type { CardOnReader, CardReader, ReaderStatus } from './card-reader.ts';
import { ReaderError } from './card-reader.ts';
import { LocalisedError } from '../localised.ts';

export type FaultOperation = 'read' | 'write';

/** A failure the next operations of one kind will report (tests and the panel use it to walk every path). */
export interface Fault {
  op: FaultOperation;
  code: ReaderCode;
  /** How many more operations fail this way. */
  remaining: number;
}

interface ReaderState {
  /** The fixed number of the card on the reader, or null. */
  present: string | null;
  faults: Fault[];
}

export interface VirtualCard {
  fixedNo: string;
  kind: CardClass;
  onReader: boolean;
}

export const virtualReaderName = 'Campus virtual reader';

/** Why the virtual reader refuses what the card commands or the panel ask of it, in the three languages. */
export const virtualReaderProblems = {
  notAFixedNo: (value: string): Localised => ({
    'en-US': `a card's fixed number is 8 to 20 hex digits, got "${value}"`,
    'zh-CN': `卡片固定号为 8 到 20 位十六进制数字，实际为“${value}”`,
    'zh-MO': `卡片固定號為 8 到 20 位十六進位數字，實際為「${value}」`,
  }),
  noSuchCard: (fixedNo: string): Localised => ({
    'en-US': `there is no card ${fixedNo}: make one with "blank" first`,
    'zh-CN': `没有卡片 ${fixedNo}：请先用“blank”制作一张`,
    'zh-MO': `沒有卡片 ${fixedNo}：請先用「blank」製作一張`,
  }),
  cardExists: (fixedNo: string): Localised => ({
    'en-US': `a card ${fixedNo} exists already`,
    'zh-CN': `卡片 ${fixedNo} 已存在`,
    'zh-MO': `卡片 ${fixedNo} 已存在`,
  }),
  timesOutOfRange: (most: number): Localised => ({
    'en-US': `times must be a whole number from 1 to ${most}`,
    'zh-CN': `次数必须是 1 到 ${most} 之间的整数`,
    'zh-MO': `次數必須是 1 到 ${most} 之間的整數`,
  }),
};

function fixedNoOf(value: string): string {
  try {
    return normaliseFixedNo(value);
  } catch {
    throw new LocalisedError(virtualReaderProblems.notAFixedNo(value));
  }
}

/**
 * The default reader driver: cards are files of their raw bytes (`<dataDir>/virtual-reader/cards/<fixedNo>.card`),
 * the reader's state is `reader.json` beside them. Both are read anew for every operation, so the CLI (another
 * process) and the panel change the reader live. A write goes to a side file, is flushed to disk and renamed over
 * the card: it lands whole or not at all.
 */
export class VirtualReader implements CardReader {
  readonly folder: string;
  private readonly cardsDir: string;
  private readonly stateFile: string;

  constructor(dataDir: string) {
    this.folder = path.join(dataDir, 'virtual-reader');
    this.cardsDir = path.join(this.folder, 'cards');
    this.stateFile = path.join(this.folder, 'reader.json');
    fs.mkdirSync(this.cardsDir, { recursive: true, mode: 0o700 });
  }

  // ---- state ----

  private state(): ReaderState {
    try {
      const parsed = JSON.parse(fs.readFileSync(this.stateFile, 'utf8')) as Partial<ReaderState>;
      return { present: typeof parsed.present === 'string' ? parsed.present : null, faults: Array.isArray(parsed.faults) ? parsed.faults : [] };
    } catch {
      return { present: null, faults: [] };
    }
  }

  private save(state: ReaderState): void {
    replaceFile(this.stateFile, Buffer.from(`${JSON.stringify(state, null, 2)}\n`));
  }

  private cardFile(fixedNo: string): string {
    return path.join(this.cardsDir, `${normaliseFixedNo(fixedNo)}.card`);
  }

  /** The fault the next `op` reports, used up by this call; null when it goes through. */
  private takeFault(op: FaultOperation): ReaderCode | null {
    const state = this.state();
    const fault = state.faults.find((f) => f.op === op && f.remaining > 0);
    if (!fault) return null;
    fault.remaining -= 1;
    state.faults = state.faults.filter((f) => f.remaining > 0);
    this.save(state);
    return fault.code;
  }

  private presentCard(): string | null {
    const { present } = this.state();
    return present !== null && fs.existsSync(this.cardFile(present)) ? present : null;
  }

  // ---- CardReader ----

  async status(): Promise<ReaderStatus> {
    const present = this.presentCard();
    return { connected: true, readerName: virtualReaderName, card: present ? { fixedNo: present } : null };
  }

  async read(): Promise<CardOnReader> {
    const fault = this.takeFault('read');
    if (fault !== null) throw new ReaderError(fault);
    const present = this.presentCard();
    if (present === null) throw new ReaderError(readerCodes.noCard);
    return { fixedNo: present, image: fs.readFileSync(this.cardFile(present)) };
  }

  async write(fixedNo: string, image: Uint8Array): Promise<void> {
    const target = normaliseFixedNo(fixedNo);
    if (image.length > cardImageSize) throw new RangeError(`a card holds ${cardImageSize} bytes, not ${image.length}`);
    const present = this.presentCard();
    if (present === null) throw new ReaderError(readerCodes.noCard);
    if (present !== target) throw new ReaderError(readerCodes.differentCard);
    const fault = this.takeFault('write');
    if (fault === readerCodes.noCard) {
      // the card was taken off before the write: it is gone from the reader, unchanged
      this.save({ ...this.state(), present: null });
      throw new ReaderError(fault);
    }
    if (fault !== null && fault !== readerCodes.writeInterruptedWhileCommitting) throw new ReaderError(fault);
    const padded = Buffer.alloc(cardImageSize);
    Buffer.from(image).copy(padded);
    replaceFile(this.cardFile(target), padded, () => {
      // 990322: the new bytes reached the side file, the card was lost before they replaced the old ones
      if (fault === readerCodes.writeInterruptedWhileCommitting) throw new ReaderError(fault);
    });
  }

  async close(): Promise<void> {
    // nothing held open: every operation opens and closes its files
  }

  // ---- what the CLI, the panel and the tests do to the reader ----

  list(): VirtualCard[] {
    const present = this.presentCard();
    return fs
      .readdirSync(this.cardsDir)
      .filter((name) => name.endsWith('.card'))
      .map((name) => name.slice(0, -'.card'.length))
      .sort()
      .map((fixedNo) => ({ fixedNo, kind: classifyCard(fs.readFileSync(this.cardFile(fixedNo))), onReader: fixedNo === present }));
  }

  /** Puts a known card on the reader (taking off any other). */
  place(fixedNo: string): void {
    const id = fixedNoOf(fixedNo);
    if (!fs.existsSync(this.cardFile(id))) throw new LocalisedError(virtualReaderProblems.noSuchCard(id));
    this.save({ ...this.state(), present: id });
  }

  remove(): void {
    this.save({ ...this.state(), present: null });
  }

  /** Makes a card holding `image` (a blank card when none), with a new fixed number unless one is given. */
  addCard(image: Uint8Array = Buffer.alloc(cardImageSize), fixedNo?: string): string {
    const id = fixedNo === undefined ? this.newFixedNo() : fixedNoOf(fixedNo);
    if (fs.existsSync(this.cardFile(id))) throw new LocalisedError(virtualReaderProblems.cardExists(id));
    if (image.length > cardImageSize) throw new RangeError(`a card holds ${cardImageSize} bytes, not ${image.length}`);
    const padded = Buffer.alloc(cardImageSize);
    Buffer.from(image).copy(padded);
    replaceFile(this.cardFile(id), padded);
    return id;
  }

  /** Makes the next `times` operations of `op` fail with `code`. */
  failNext(op: FaultOperation, code: ReaderCode, times = 1): void {
    if (!Number.isInteger(times) || times < 1 || times > 100) throw new LocalisedError(virtualReaderProblems.timesOutOfRange(100));
    const state = this.state();
    this.save({ ...state, faults: [...state.faults.filter((f) => f.op !== op), { op, code, remaining: times }] });
  }

  faults(): Fault[] {
    return this.state().faults;
  }

  private newFixedNo(): string {
    for (;;) {
      const id = randomBytes(4).toString('hex').toUpperCase();
      if (!fs.existsSync(this.cardFile(id))) return id;
    }
  }
}

/**
 * Writes `bytes` to a side file, flushes it and renames it over `file`: readers see the old or the new
 * content, never a part. `beforeRename` may throw to leave `file` as it was (the side file is removed).
 */
function replaceFile(file: string, bytes: Buffer, beforeRename?: () => void): void {
  const side = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = fs.openSync(side, 'w', 0o600);
  try {
    fs.writeSync(fd, bytes);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    beforeRename?.();
    fs.renameSync(side, file);
  } catch (error) {
    fs.rmSync(side, { force: true });
    throw error;
  }
}
