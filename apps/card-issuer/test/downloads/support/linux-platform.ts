import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PcscLab } from '../../support/pcsc-lab.ts';
import type { LabCard } from '../../support/pcsc-lab.ts';
import type { DownloadCard, DownloadPlatform, IssuerSettings, NewDownloadCard } from './download-platform.ts';
import { readerSeen, until } from './issuer-panel.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..', '..', '..');
export const linuxArchive = path.join(repoRoot, 'dist', 'card-issuer', 'card-issuer-linux-x64.tar.gz');

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/**
 * The Linux download as built, unpacked into a temp dir and started with its ./start.sh and CARD_READER=pcsc, against
 * the host's pcscd with the PC/SC lab's virtual reader and cards (test/support/pcsc-lab.ts).
 */
export class LinuxPlatform implements DownloadPlatform {
  readonly timings: string[] = [];
  private issuer: ChildProcess | null = null;
  private readonly cards = new Map<string, LabCard>();

  private constructor(
    private readonly lab: PcscLab,
    private readonly dir: string,
  ) {}

  get readerName(): string {
    return this.lab.readerName;
  }

  private get unpacked(): string {
    return path.join(this.dir, 'card-issuer-linux-x64');
  }

  static async open(): Promise<LinuxPlatform> {
    if (!fs.existsSync(linuxArchive)) throw new Error(`${linuxArchive} is missing: run node scripts/build-issuer.mjs first`);
    let started = Date.now();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-linux-download-'));
    await new Promise<void>((resolve, reject) => execFile('tar', ['-xzf', linuxArchive, '-C', dir], (error) => (error ? reject(error) : resolve())));
    const untar = seconds(started);
    started = Date.now();
    const lab = await PcscLab.start();
    const platform = new LinuxPlatform(lab, dir);
    platform.timings.push(`untar ${untar}`, `pcscd ${seconds(started)}`);
    return platform;
  }

  async startIssuer({ port, allowedOrigin }: IssuerSettings): Promise<void> {
    const started = Date.now();
    const log = fs.openSync(path.join(this.dir, 'issuer.log'), 'a');
    // the environment of an operator's shell: nothing of this test run's node_modules or Node options
    this.issuer = spawn(path.join(this.unpacked, 'start.sh'), [], {
      cwd: this.unpacked,
      stdio: ['ignore', log, log],
      env: { PATH: process.env.PATH, HOME: this.dir, CARD_READER: 'pcsc', CARD_ISSUER_LANG: 'en-US', CARD_READER_NAME: this.readerName, CARD_ISSUER_PORT: String(port), CARD_ISSUER_ALLOWED_ORIGINS: allowedOrigin },
    });
    fs.closeSync(log);
    const issuer = this.issuer;
    await until(
      () => `the Linux issuer to answer on port ${port} (log: ${this.issuerLog()})`,
      async () => {
        if (issuer.exitCode !== null) throw new Error(`the Linux issuer stopped (exit ${issuer.exitCode}): ${this.issuerLog()}`);
        return (await readerSeen(port, this.readerName)) !== 'no answer';
      },
      60,
    );
    this.timings.push(`issuer start ${seconds(started)}`);
  }

  cardCommand(args: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      execFile(path.join(this.unpacked, 'start.sh'), ['card', ...args], { cwd: this.unpacked, env: { PATH: process.env.PATH, HOME: this.dir, CARD_ISSUER_LANG: 'en-US', CARD_READER_NAME: this.readerName }, timeout: 60_000 }, (error, stdout, stderr) => {
        if (error) reject(new Error(`card ${args[0]} failed (${error.message}): ${stdout}${stderr}`));
        else resolve(stdout + stderr);
      });
    });
  }

  newCard(options: NewDownloadCard = {}): DownloadCard {
    const card = this.lab.newCard(options);
    this.cards.set(card.serial, card);
    return { serial: card.serial };
  }

  async place(card: DownloadCard, options: { leaveAtUpdate?: number } = {}): Promise<void> {
    const labCard = this.cards.get(card.serial);
    if (!labCard) throw new Error(`card ${card.serial} is not one of this lab's`);
    await this.lab.place(labCard, options);
  }

  remove(): Promise<void> {
    return this.lab.remove();
  }

  stopService(): Promise<void> {
    return this.lab.stopPcscd();
  }

  startService(): Promise<void> {
    return this.lab.startPcscd();
  }

  issuerLog(): string {
    try {
      return fs.readFileSync(path.join(this.dir, 'issuer.log'), 'utf8').slice(-3000);
    } catch {
      return '(no log)';
    }
  }

  async close(): Promise<void> {
    const issuer = this.issuer;
    if (issuer && issuer.exitCode === null && issuer.signalCode === null) {
      const ended = new Promise((resolve) => issuer.once('exit', resolve));
      issuer.kill('SIGTERM');
      await ended;
    }
    await this.lab.close();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
