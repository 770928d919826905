import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// @ts-expect-error: a plain script without type declarations
import { runInRoot, winePrefix } from '../../../../../scripts/wine-lab/wine-root.mjs';

const leftovers = `WINEPREFIX=${winePrefix as string} wineserver -k 2>/dev/null; test -f /run/pcscd/pcscd.pid && kill $(cat /run/pcscd/pcscd.pid) 2>/dev/null; true`;
const runInRootOf = runInRoot as (root: string, script: string, options: Record<string, unknown>) => ChildProcess;

export type RootNetwork = 'host' | 'private';

/** `args` as words of a sh command line. */
export const shWords = (args: string[]) => args.map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(' ');

/**
 * One run in the cached Wine root (scripts/wine-lab/wine-root.mjs): an overlay of its own over the root, in a private
 * mount namespace kept open by a small keeper process, which every command then joins (nsenter), so that pcscd, the
 * virtual cards and Wine see the same /run/pcscd, /tmp and overlay while the test starts and stops each of them.
 * With `network: 'host'` what listens in the root (the issuer, vpcd) is reached from the test on 127.0.0.1, so every
 * run uses ports of its own; with `'private'` the root has a loopback of its own (the issuer on its default port meets
 * nothing of the host's), reached only from inside. `binds` are host folders shown inside the root.
 */
export class RootSession {
  private readonly children = new Set<ChildProcess>();

  private constructor(
    private readonly keeper: ChildProcess,
    private readonly overlay: string,
    private readonly network: RootNetwork,
  ) {}

  static async open(root: string, binds: { from: string; to: string }[], network: RootNetwork): Promise<RootSession> {
    const overlay = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-wine-overlay-'));
    const ready = path.join(overlay, 'ready');
    fs.mkdirSync(ready);
    // the keeper ends with this process, and a test run that dies takes down what it started in the root (Wine's
    // programs, this namespace's pcscd, whose virtual cards then end), so it leaves no namespace behind
    const keeper = runInRootOf(root, `touch /run/campus-ready/yes; while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; ${leftovers}`, {
      overlay,
      binds: [...binds, { from: ready, to: '/run/campus-ready' }],
      network: network === 'host',
      detached: true,
      stdio: 'ignore',
    });
    const session = new RootSession(keeper, overlay, network);
    const deadline = Date.now() + 20_000;
    while (!fs.existsSync(path.join(ready, 'yes'))) {
      if (keeper.exitCode !== null || Date.now() > deadline) {
        await session.close();
        throw new Error(`the Wine root did not start (keeper exit ${keeper.exitCode})`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return session;
  }

  private args(script: string, env: Record<string, string>): string[] {
    const base = { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', HOME: '/root', LANG: 'C.UTF-8', XDG_RUNTIME_DIR: '/tmp', WINEPREFIX: winePrefix as string, WINEDEBUG: '-all' };
    const assignments = Object.entries({ ...base, ...env }).map(([key, value]) => `${key}=${value}`);
    const namespaces = this.network === 'private' ? ['-m', '-n'] : ['-m'];
    return ['-t', String(this.keeper.pid), ...namespaces, '-r', '-w', '/usr/bin/env', '-i', ...assignments, '/bin/sh', '-c', script];
  }

  /** Starts `script` (sh) in the root and answers its process; a script that ends in `exec` is that program. */
  spawn(script: string, env: Record<string, string> = {}): ChildProcess {
    const child = spawn('nsenter', this.args(script, env), { stdio: 'ignore' });
    this.children.add(child);
    child.once('exit', () => this.children.delete(child));
    return child;
  }

  /** Runs `script` (sh) in the root to its end; answers its exit code and output. */
  run(script: string, env: Record<string, string> = {}, timeout = 60_000): Promise<{ status: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
      execFile('nsenter', this.args(script, env), { encoding: 'utf8', timeout, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') reject(new Error(`in the Wine root: ${script.slice(0, 200)}: ${error.message}`));
        else resolve({ status: error ? Number(error.code) : 0, stdout, stderr });
      });
    });
  }

  /** Ends every program of the run (Wine's too) and the namespace, and removes the overlay. */
  async close(): Promise<void> {
    if (this.keeper.exitCode === null) await this.run('wineserver -k 2>/dev/null; true', {}, 20_000).catch(() => undefined);
    const ended = [...this.children, this.keeper].map((child) =>
      child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve())),
    );
    for (const child of this.children) child.kill('SIGKILL');
    this.keeper.kill('SIGKILL');
    await Promise.all(ended);
    fs.rmSync(this.overlay, { recursive: true, force: true });
  }
}
