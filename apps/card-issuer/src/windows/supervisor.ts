import type { ChildProcess } from 'node:child_process';
import type { Localised } from '@campus/contracts';
import type { RotatingLog } from './rotating-log.ts';
import { serviceMessages } from './service-messages.ts';

/** What the issuer is told over its IPC channel to close its server and end (main.ts listens for it). */
export const stopMessage = { campusIssuer: 'stop' } as const;

export interface SupervisorOptions {
  /** Starts the issuer: a node process with stdout and stderr piped and an IPC channel. */
  spawnIssuer: () => ChildProcess;
  log: RotatingLog;
  /** The PC's language for the log's lines. */
  say: (message: Localised) => string;
  /** Waits before the 1st, 2nd, … restart after a crash; the last one repeats. */
  backoffMs?: number[];
  /** A run at least this long counts as healthy: the next crash waits the first back-off again. */
  healthyAfterMs?: number;
  /** How long a stop waits for the issuer to close before it is ended by force. */
  stopGraceMs?: number;
}

/**
 * Keeps the card issuer running as a child process: starts it, writes its output to the log, starts it again after
 * it ended on its own (waiting longer after each quick crash, and saying so in the log), and stops it on request.
 */
export class IssuerSupervisor {
  private child: ChildProcess | null = null;
  private restartTimer: NodeJS.Timeout | null = null;
  private crashes = 0;
  private stopping = false;
  private readonly backoffMs: number[];
  private readonly healthyAfterMs: number;
  private readonly stopGraceMs: number;

  constructor(private readonly options: SupervisorOptions) {
    this.backoffMs = options.backoffMs ?? [1_000, 2_000, 5_000, 10_000, 30_000, 60_000];
    this.healthyAfterMs = options.healthyAfterMs ?? 60_000;
    this.stopGraceMs = options.stopGraceMs ?? 5_000;
  }

  /** The running issuer's process id, if one runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts the issuer; resolves once its process exists (or failed to start, which is logged and retried). */
  async start(): Promise<void> {
    this.stopping = false;
    await this.launch();
  }

  /** Stops the issuer (gracefully, then by force) and restarts it no more. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    const child = this.child;
    if (!child) return;
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => {
        this.note(serviceMessages.issuerForced(this.stopGraceMs / 1000));
        child.kill('SIGKILL');
      }, this.stopGraceMs);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      if (child.connected) child.send(stopMessage, (error) => error && child.kill());
      else child.kill();
    });
  }

  private note(message: Localised): void {
    this.options.log.line('service', this.options.say(message));
  }

  private launch(): Promise<void> {
    return new Promise((resolve) => {
      const started = Date.now();
      let child: ChildProcess;
      try {
        child = this.options.spawnIssuer();
      } catch (error) {
        this.ended(started, null, null, error);
        resolve();
        return;
      }
      this.child = child;
      const { log } = this.options;
      child.stdout?.on('data', (data: Buffer) => log.chunk('issuer', data));
      child.stderr?.on('data', (data: Buffer) => log.chunk('issuer:err', data));
      let failedToStart: unknown = null;
      child.once('spawn', () => {
        this.note(serviceMessages.issuerStarted(child.pid ?? 0));
        resolve();
      });
      child.once('error', (error) => {
        failedToStart = error;
        if (child.pid === undefined) {
          this.ended(started, null, null, error);
          resolve();
        }
      });
      child.once('exit', (code, signal) => {
        log.flush('issuer');
        log.flush('issuer:err');
        this.ended(started, code, signal, failedToStart);
      });
    });
  }

  private ended(started: number, code: number | null, signal: NodeJS.Signals | null, error: unknown): void {
    this.child = null;
    if (this.stopping) {
      this.note(serviceMessages.issuerStopped());
      return;
    }
    if (Date.now() - started >= this.healthyAfterMs) this.crashes = 0;
    const wait = this.backoffMs[Math.min(this.crashes, this.backoffMs.length - 1)] ?? 1_000;
    this.crashes += 1;
    const how = error ? String(error instanceof Error ? error.message : error) : signal ? `signal ${signal}` : `exit code ${code}`;
    this.note(serviceMessages.issuerCrashed(how, Math.round((Date.now() - started) / 1000), wait / 1000, this.crashes));
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (!this.stopping) void this.launch();
    }, wait);
  }
}
