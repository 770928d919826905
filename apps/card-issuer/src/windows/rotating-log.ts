import fs from 'node:fs';
import path from 'node:path';

export interface RotatingLogOptions {
  /** The most one file holds, in bytes: 1 MiB. */
  maxBytes?: number;
  /** How many files are kept, the current one included (issuer.log, issuer.log.1 … issuer.log.4): 5. */
  files?: number;
  /** The clock for the time stamps (tests). */
  now?: () => Date;
}

/**
 * A log file that never grows past `files` × `maxBytes` on disk: when the next write would not fit, issuer.log
 * becomes issuer.log.1, .1 becomes .2 and so on, and the oldest goes. Writes are synchronous, so a line written just
 * before the process ends is on disk, and the file is closed between rotations only (Windows renames no open file;
 * only this process writes it, the issuer's output comes through pipes).
 */
export class RotatingLog {
  readonly maxBytes: number;
  readonly files: number;
  private fd: number | null = null;
  private size = 0;
  private readonly now: () => Date;
  /** Bytes of a line not ended yet, per source (stdout and stderr of the issuer). */
  private readonly partial = new Map<string, string>();

  constructor(
    readonly file: string,
    options: RotatingLogOptions = {},
  ) {
    this.maxBytes = options.maxBytes ?? 1024 * 1024;
    this.files = options.files ?? 5;
    this.now = options.now ?? (() => new Date());
    if (this.maxBytes < 256 || this.files < 1) throw new Error('a rotating log needs maxBytes >= 256 and files >= 1');
  }

  /** One line of `source` ("service", "issuer") with the time. */
  line(source: string, text: string): void {
    for (const part of text.replace(/\r?\n$/, '').split(/\r?\n/)) this.write(`${this.now().toISOString()} [${source}] ${part}\r\n`);
  }

  /** A chunk of a stream: whole lines are written with the time, the rest waits for its end (or for flush). */
  chunk(source: string, data: string | Buffer): void {
    const text = (this.partial.get(source) ?? '') + data.toString();
    const end = text.lastIndexOf('\n');
    if (end < 0 && Buffer.byteLength(text) < this.maxBytes / 4) {
      this.partial.set(source, text);
      return;
    }
    this.partial.delete(source);
    if (end < 0) return this.line(source, text);
    this.line(source, text.slice(0, end));
    if (end + 1 < text.length) this.partial.set(source, text.slice(end + 1));
  }

  /** Writes what is left of unfinished lines (the stream ended). */
  flush(source?: string): void {
    for (const [key, text] of [...this.partial]) {
      if (source !== undefined && key !== source) continue;
      this.partial.delete(key);
      if (text !== '') this.line(key, text);
    }
  }

  close(): void {
    this.flush();
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
  }

  private write(text: string): void {
    let bytes = Buffer.from(text);
    while (bytes.length > 0) {
      this.open();
      if (this.size > 0 && this.size + bytes.length > this.maxBytes) this.rotate();
      this.open();
      const room = this.maxBytes - this.size;
      const piece = bytes.length <= room ? bytes : bytes.subarray(0, room);
      fs.writeSync(this.fd!, piece);
      this.size += piece.length;
      bytes = bytes.subarray(piece.length);
    }
  }

  private open(): void {
    if (this.fd !== null) return;
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    this.fd = fs.openSync(this.file, 'a');
    this.size = fs.fstatSync(this.fd).size;
  }

  private rotate(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
    const numbered = (n: number) => `${this.file}.${n}`;
    if (this.files === 1) {
      fs.rmSync(this.file, { force: true });
      return;
    }
    fs.rmSync(numbered(this.files - 1), { force: true });
    for (let n = this.files - 2; n >= 1; n--) if (fs.existsSync(numbered(n))) fs.renameSync(numbered(n), numbered(n + 1));
    fs.renameSync(this.file, numbered(1));
  }
}
