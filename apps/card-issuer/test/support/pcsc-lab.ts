import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PcscBinding } from '../../src/readers/pcsc/pcsc-binding.ts';
import { exited, terminate } from './child-process-end.ts';
import { loadPcscBinding } from '../../src/readers/pcsc/pcsc-binding.ts';

/**
 * A PC/SC bench without hardware for the tests: Debian's pcscd with the vsmartcard virtual reader driver (vpcd), and
 * virtual ISO 7816 cards (apps/card-issuer/tools/virtual-iso-card.py, on python3-virtualsmartcard) that keep their
 * files while off the reader. Placing a card starts its process; pulling it kills the process, at any point of a
 * write. The lab runs its own pcscd with its own reader configuration, so it needs root (for pcscd's socket) and
 * no other pcscd running; `pcscLabProblem()` says what is missing, and the PC/SC cases skip with that message.
 */

const pcscdPath = '/usr/sbin/pcscd';
const vpcdDriver = '/usr/lib/pcsc/drivers/serial/libifdvpcd.so';
const viccLibrary = '/usr/lib/python3/site-packages/virtualsmartcard';
const cryptodome = '/usr/lib/python3/dist-packages/Cryptodome';
const pcscdPidFile = '/run/pcscd/pcscd.pid';
const cardScript = path.resolve(import.meta.dirname, '..', '..', 'tools', 'virtual-iso-card.py');
/** The vpcd port of the lab's reader (not vpcd's default, so a machine's own vpcd set-up is left alone). */
export const vpcdPort = 0x9c5b;
const friendlyName = 'Campus test reader';
/** pcscd names a reader "<friendly name> <slot> <index>": the lab's first slot. */
export const labReaderName = `${friendlyName} 00 00`;

export const pcscPackages = 'pcscd vsmartcard-vpcd python3-virtualsmartcard python3-pycryptodome';

/** The driver's own FFI binding: the lab checks the reader the way the issuer sees it. */
let binding: PcscBinding | null = null;
async function pcsc(): Promise<PcscBinding> {
  binding ??= await loadPcscBinding();
  return binding;
}

function livePid(file: string): number | null {
  try {
    const pid = Number(fs.readFileSync(file, 'utf8').trim());
    if (!Number.isInteger(pid) || pid <= 0) return null;
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

/** Why the PC/SC lab cannot run on this machine, or null when it can. */
export async function pcscLabProblem(): Promise<string | null> {
  const missing = [
    [pcscdPath, 'pcscd'],
    [vpcdDriver, 'vsmartcard-vpcd'],
    [viccLibrary, 'python3-virtualsmartcard'],
    [cryptodome, 'python3-pycryptodome'],
  ].filter(([file]) => !fs.existsSync(file!));
  if (missing.length > 0) {
    return `PC/SC tests skipped: ${missing.map(([, pkg]) => pkg).join(', ')} not installed (as root: apt-get install -y ${pcscPackages}, then npm install)`;
  }
  try {
    await pcsc();
  } catch (error) {
    return `PC/SC tests skipped: ${(error as Error).message.split('\n')[0]}`;
  }
  if (process.getuid?.() !== 0) return 'PC/SC tests skipped: the lab starts its own pcscd, which needs root';
  const other = livePid(pcscdPidFile);
  if (other !== null) return `PC/SC tests skipped: a pcscd the tests did not start is running (pid ${other}); stop it (systemctl stop pcscd.socket pcscd) to run them`;
  return null;
}

export interface LabCard {
  /** The file holding the card's files between placements. */
  state: string;
  serial: string;
}

export interface NewCardOptions {
  serial?: string;
  /** Bytes of the data file 0101 (0: none). */
  dataSize?: number;
  structure?: 'transparent' | 'record';
}

export class PcscLab {
  private pcscd: ChildProcess | null = null;
  private card: ChildProcess | null = null;
  private cardOptions = new Map<string, NewCardOptions>();
  private serials = 0;

  private constructor(readonly dir: string) {}

  static async start(): Promise<PcscLab> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-pcsc-lab-'));
    fs.mkdirSync(path.join(dir, 'reader.conf.d'));
    fs.writeFileSync(
      path.join(dir, 'reader.conf.d', 'vpcd'),
      `FRIENDLYNAME "${friendlyName}"\nDEVICENAME /dev/null:0x${vpcdPort.toString(16)}\nLIBPATH ${vpcdDriver}\nCHANNELID 0x${vpcdPort.toString(16)}\n`,
    );
    // vicc imports Crypto; Debian ships PyCryptodome as Cryptodome
    fs.mkdirSync(path.join(dir, 'python'));
    fs.symlinkSync(cryptodome, path.join(dir, 'python', 'Crypto'));
    const lab = new PcscLab(dir);
    await lab.startPcscd();
    return lab;
  }

  /** The name of the lab's reader (CARD_READER_NAME). */
  get readerName(): string {
    return labReaderName;
  }

  async startPcscd(): Promise<void> {
    const log = fs.openSync(path.join(this.dir, 'pcscd.log'), 'a');
    this.pcscd = spawn(pcscdPath, ['--foreground', '--config', path.join(this.dir, 'reader.conf.d')], { stdio: ['ignore', log, log] });
    fs.closeSync(log);
    await this.until(async () => (await this.readerState()) !== null, 'pcscd to list the lab reader');
  }

  /** Stops pcscd as a crash or `systemctl stop` would (SIGTERM; SIGKILL after 5 s). */
  async stopPcscd(): Promise<void> {
    const pcscd = this.pcscd;
    this.pcscd = null;
    if (!pcscd) return;
    await terminate(pcscd);
    // the card's process ends when its reader goes away
    if (this.card) await exited(this.card);
    this.card = null;
  }

  /** A new card, off the reader: EF.GDO with its serial number and a data file as asked. */
  newCard(options: NewCardOptions = {}): LabCard {
    this.serials += 1;
    const serial = options.serial ?? `CA${String(process.pid % 10000).padStart(4, '0')}${String(this.serials).padStart(4, '0')}`;
    const card = { state: path.join(this.dir, `card-${serial}.pickle`), serial };
    this.cardOptions.set(card.state, options);
    return card;
  }

  /**
   * Puts the card on the reader (taking off any other) and waits until pcscd sees it. With `leaveAtUpdate` the card
   * leaves the reader by itself when that UPDATE BINARY (from 0) arrives, for a driver in another process.
   */
  async place(card: LabCard, { leaveAtUpdate }: { leaveAtUpdate?: number } = {}): Promise<void> {
    await this.remove();
    const options = this.cardOptions.get(card.state) ?? {};
    const args = [cardScript, '--state', card.state, '--port', String(vpcdPort), '--serial', card.serial];
    if (options.dataSize !== undefined) args.push('--data-size', String(options.dataSize));
    if (options.structure) args.push('--data-structure', options.structure);
    if (leaveAtUpdate !== undefined) args.push('--leave-at-update', String(leaveAtUpdate));
    const log = fs.openSync(path.join(this.dir, 'cards.log'), 'a');
    this.card = spawn('/usr/bin/python3', args, {
      stdio: ['ignore', log, log],
      env: { ...process.env, PYTHONPATH: `${path.join(this.dir, 'python')}:${viccLibrary}` },
    });
    fs.closeSync(log);
    await this.until(async () => (await this.readerState()) === 'present', `card ${card.serial} on the reader`);
  }

  /** Pulls the card off at once (SIGKILL, whatever it was doing); pcscd notices a moment later. */
  async pull(): Promise<void> {
    const card = this.card;
    this.card = null;
    if (!card) return;
    card.kill('SIGKILL');
    await exited(card);
  }

  /** Takes the card off and waits until pcscd reports the reader empty. */
  async remove(): Promise<void> {
    await this.pull();
    if (this.pcscd) await this.until(async () => (await this.readerState()) === 'empty', 'the reader to be empty');
  }

  /** Another program takes the card on the lab reader for itself; answers how to let it go. */
  async holdCardExclusively(): Promise<() => void> {
    const sc = await pcsc();
    const context = sc.newContext();
    const reader = context.listReaders().find((r) => r.name === labReaderName);
    if (!reader) throw new Error('PC/SC lab: the lab reader is not listed');
    const card = await reader.connect(sc.shareExclusive, sc.anyProtocol);
    return () => {
      card.disconnect(sc.leaveCard);
      context.close();
    };
  }

  async close(): Promise<void> {
    await this.pull();
    await this.stopPcscd();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  /** The lab reader as pcscd reports it: null when it is not listed (pcscd down or starting). */
  private async readerState(): Promise<'present' | 'empty' | null> {
    try {
      const sc = await pcsc();
      const context = sc.newContext();
      try {
        const reader = context.listReaders().find((r) => r.name === labReaderName);
        if (!reader) return null;
        return (reader.state & sc.statePresent) !== 0 ? 'present' : 'empty';
      } finally {
        context.close();
      }
    } catch {
      return null;
    }
  }

  private async until(condition: () => Promise<boolean>, what: string): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`PC/SC lab: gave up waiting for ${what} (logs in ${this.dir})`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
