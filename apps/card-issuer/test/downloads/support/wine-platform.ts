import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DownloadCard, DownloadPlatform, IssuerSettings, NewDownloadCard } from './download-platform.ts';
import { exited, terminate } from '../../support/child-process-end.ts';
import { readerSeen, until } from './issuer-panel.ts';
import { shWords } from './root-session.ts';
import type { RootSession } from './root-session.ts';
import { openUnzippedWindowsDownload } from './unzipped-windows-download.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..', '..', '..');
const cardTool = path.join(repoRoot, 'apps', 'card-issuer', 'tools', 'virtual-iso-card.py');
/** Inside the root (Debian 13): vicc's library and PyCryptodome, which vicc imports as Crypto. */
const viccLibrary = '/usr/lib/python3/site-packages/virtualsmartcard';
const cryptodome = '/usr/lib/python3/dist-packages/Cryptodome';
const friendlyName = 'Campus Wine reader';

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/**
 * The Windows download under Wine 10 in the cached Debian 13 root: the zip as built, unpacked inside the root and
 * started with its start.cmd (Wine's cmd, the download's node.exe, winscard.dll to the root's pcscd) and its card
 * commands run with card.cmd, pcscd with a vpcd reader on a port of this run, and virtual cards whose files live in a
 * host folder bound into the root.
 */
export class WinePlatform implements DownloadPlatform {
  readonly readerName = `${friendlyName} 00 00`;
  readonly timings: string[] = [];
  private pcscd: ChildProcess | null = null;
  private card: ChildProcess | null = null;
  private issuer: ChildProcess | null = null;
  private issuerPort = 0;
  private issuerSettings: IssuerSettings | null = null;
  private readonly cardOptions = new Map<string, NewDownloadCard>();
  private serials = 0;

  private constructor(
    private readonly session: RootSession,
    private readonly unpacked: string,
    private readonly lab: string,
    private readonly vpcdPort: number,
  ) {}

  static async open(vpcdPort: number): Promise<WinePlatform> {
    const lab = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-wine-lab-'));
    fs.mkdirSync(path.join(lab, 'reader.conf.d'));
    const hexPort = `0x${vpcdPort.toString(16)}`;
    fs.writeFileSync(path.join(lab, 'reader.conf.d', 'vpcd'), `FRIENDLYNAME "${friendlyName}"\nDEVICENAME /dev/null:${hexPort}\nLIBPATH /usr/lib/pcsc/drivers/serial/libifdvpcd.so\nCHANNELID ${hexPort}\n`);
    fs.mkdirSync(path.join(lab, 'python'));
    fs.symlinkSync(cryptodome, path.join(lab, 'python', 'Crypto'));
    fs.copyFileSync(cardTool, path.join(lab, 'virtual-iso-card.py'));
    // the host's network: the test reaches the issuer on 127.0.0.1 (vpcd listens there too, on a port of this run)
    const { session, folder, timings } = await openUnzippedWindowsDownload([{ from: lab, to: '/lab' }], 'host').catch((error: unknown) => {
      fs.rmSync(lab, { recursive: true, force: true });
      throw error;
    });
    const platform = new WinePlatform(session, folder, lab, vpcdPort);
    platform.timings.push(...timings);
    try {
      await platform.startService();
    } catch (error) {
      await platform.close();
      throw error;
    }
    return platform;
  }

  async startIssuer({ port, allowedOrigin }: IssuerSettings): Promise<void> {
    const started = Date.now();
    this.issuerPort = port;
    this.issuerSettings = { port, allowedOrigin };
    // start.cmd as the operator starts it; node.exe's output into a file (a pipe makes console.log fail under Wine)
    this.issuer = this.session.spawn(`cd ${this.unpacked} && exec wine cmd /c start.cmd >/lab/issuer.log 2>&1`, {
      CARD_READER: 'pcsc',
      CARD_READER_NAME: this.readerName,
      // the scenario reads the issuer's English texts: the PC's language must not decide them
      CARD_ISSUER_LANG: 'en-US',
      CARD_ISSUER_PORT: String(port),
      CARD_ISSUER_ALLOWED_ORIGINS: allowedOrigin,
    });
    const issuer = this.issuer;
    await until(() => `the Windows issuer to answer on port ${port} (log: ${this.issuerLog()})`, async () => {
      if (issuer.exitCode !== null) throw new Error(`the Windows issuer stopped (exit ${issuer.exitCode}): ${this.issuerLog()}`);
      return (await readerSeen(port, this.readerName)) !== 'no answer';
    }, 60);
    this.timings.push(`Wine and the issuer's start ${seconds(started)}`);
  }

  async cardCommand(args: string[]): Promise<string> {
    // card.cmd as an operator runs it in a console; node.exe's output into a file, as above
    const result = await this.session.run(`cd ${this.unpacked} && wine cmd /c card.cmd ${shWords(args)} >/lab/card-command.log 2>&1`, { CARD_READER_NAME: this.readerName, CARD_ISSUER_LANG: 'en-US' });
    const output = fs.readFileSync(path.join(this.lab, 'card-command.log'), 'utf8');
    if (result.status !== 0) throw new Error(`card.cmd ${args[0]} under Wine failed (exit ${result.status}): ${output}`);
    return output;
  }

  newCard(options: NewDownloadCard = {}): DownloadCard {
    this.serials += 1;
    const serial = `CB${String(process.pid % 10000).padStart(4, '0')}${String(this.serials).padStart(4, '0')}`;
    this.cardOptions.set(serial, options);
    return { serial };
  }

  async place(card: DownloadCard, options: { leaveAtUpdate?: number } = {}): Promise<void> {
    await this.remove();
    const made = this.cardOptions.get(card.serial) ?? {};
    const args = ['/lab/virtual-iso-card.py', '--state', `/lab/card-${card.serial}.pickle`, '--port', String(this.vpcdPort), '--serial', card.serial];
    if (made.dataSize !== undefined) args.push('--data-size', String(made.dataSize));
    if (options.leaveAtUpdate !== undefined) args.push('--leave-at-update', String(options.leaveAtUpdate));
    this.card = this.session.spawn(`exec python3 ${args.join(' ')} >>/lab/cards.log 2>&1`, { PYTHONPATH: `/lab/python:${viccLibrary}` });
    await this.untilReader('present', `card ${card.serial} on the reader`);
  }

  async remove(): Promise<void> {
    const card = this.card;
    this.card = null;
    if (card) {
      card.kill('SIGKILL');
      await exited(card);
    }
    if (this.pcscd) await this.untilReader('empty', 'the reader to be empty');
  }

  async stopService(): Promise<void> {
    const pcscd = this.pcscd;
    this.pcscd = null;
    if (!pcscd) return;
    await terminate(pcscd);
    // the card's process ends when its reader goes away
    if (this.card) await exited(this.card);
    this.card = null;
  }

  async startService(): Promise<void> {
    await this.session.run('rm -f /run/pcscd/pcscd.comm /run/pcscd/pcscd.pid');
    this.pcscd = this.session.spawn('exec pcscd --foreground --disable-polkit --config /lab/reader.conf.d >>/lab/pcscd.log 2>&1');
    const pcscd = this.pcscd;
    await until('pcscd in the Wine root to listen', async () => {
      if (pcscd.exitCode !== null) throw new Error(`pcscd in the Wine root stopped (exit ${pcscd.exitCode}): ${this.log('pcscd.log')}`);
      return (await this.session.run('test -S /run/pcscd/pcscd.comm')).status === 0;
    });
    if (this.issuer) await this.untilReader('empty', 'the issuer to list the reader again');
  }

  async restartAsCopyOnAnotherPc(): Promise<void> {
    const issuer = this.issuer;
    if (!issuer || !this.issuerSettings) throw new Error('start the issuer first');
    await this.session.run('wine taskkill /F /IM node.exe >/dev/null 2>&1');
    await exited(issuer);
    this.issuer = null;
    // another Windows installation: another MachineGuid, which the DPAPI seal's entropy binds the key to
    await this.session.run(String.raw`wine reg add 'HKLM\SOFTWARE\Microsoft\Cryptography' /v MachineGuid /t REG_SZ /d 8d2e4f60-1b3c-4a5d-9e7f-0a1b2c3d4e5f /f >/dev/null 2>&1`);
    fs.renameSync(path.join(this.lab, 'issuer.log'), path.join(this.lab, 'issuer-first-pc.log'));
    await this.startIssuer(this.issuerSettings);
  }

  issuerLog(): string {
    return this.log('issuer.log');
  }

  async close(): Promise<void> {
    await this.session.close();
    fs.rmSync(this.lab, { recursive: true, force: true });
  }

  private log(name: string): string {
    try {
      return fs.readFileSync(path.join(this.lab, name), 'utf8').slice(-3000);
    } catch {
      return '(no log)';
    }
  }

  /** What the issuer sees of the reader is what counts: the root has no PC/SC client of its own to ask. */
  private async untilReader(state: 'present' | 'empty', what: string): Promise<void> {
    if (!this.issuer) throw new Error('the Wine platform waits for cards through the issuer: start it first');
    let seen = '';
    await until(() => `${what} (the issuer sees: ${seen})`, async () => {
      seen = await readerSeen(this.issuerPort, this.readerName);
      return seen === state;
    });
  }
}
