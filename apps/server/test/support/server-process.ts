import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from '../../src/config.ts';

/**
 * The real server as its own process (`node --import tsx apps/server/src/main.ts`, as e2e/support/start-server.mjs
 * starts it), for the tests that kill it (crash-recovery) or take its database away (database-away): the in-process
 * server of helpers.ts would die with the test.
 */
export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote so far. */
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the first line of stdout or stderr that matches, once it is written. */
  waitForLine: (pattern: RegExp, timeoutMs?: number) => Promise<string>;
  /** SIGKILL: no shutdown of any kind (the point of a crash test); resolves once the process is gone. */
  kill: () => Promise<void>;
  /** SIGTERM, the server's own shutdown; resolves once the process is gone. */
  stop: () => Promise<void>;
  /** Whether the process still runs. */
  alive: () => boolean;
}

export interface ServerProcessOptions {
  port: number;
  dataDir: string;
  /** postgres://… or null for SQLite in dataDir. */
  databaseUrl: string | null;
  env?: Record<string, string>;
  /** How long the start may take (a first start seeds the demo: argon2 hashes on a shared machine). */
  startTimeoutMs?: number;
  /** More arguments for Node, after `--import tsx` (another module to load first). */
  nodeArgs?: string[];
}

const mainFile = path.join(repoRoot, 'apps', 'server', 'src', 'main.ts');

export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: String(options.port),
    DATA_DIR: options.dataDir,
    DATABASE_URL: options.databaseUrl ?? '',
    SHELL_DIST: path.join(options.dataDir, 'no-shell'),
    IMAGE_CODE: 'off',
    RATE_LIMIT_PER_MINUTE: '100000',
    LOGIN_ADDRESS_FAILURE_LIMIT: '100000',
    TEST_PAUSE_AT: '',
    ...options.env,
  };
  const child = spawn(process.execPath, ['--import', 'tsx', ...(options.nodeArgs ?? []), mainFile], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const waiter of [...waiters]) waiter();
  };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    wake();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
    wake();
  });
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => {
    exited = true;
    wake();
    resolve();
  }));

  const waitForLine = (pattern: RegExp, timeoutMs = 30_000) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const line = `${out}\n${err}`.split('\n').find((l) => pattern.test(l));
        if (line !== undefined) return done(() => resolve(line));
        if (exited) return done(() => reject(new Error(`the server exited before writing ${pattern}:\n${err.slice(-2000)}`)));
      };
      const timer = setTimeout(() => done(() => reject(new Error(`the server did not write ${pattern} within ${timeoutMs} ms:\n${err.slice(-2000)}`))), timeoutMs);
      const done = (settle: () => void) => {
        clearTimeout(timer);
        waiters.delete(check);
        settle();
      };
      waiters.add(check);
      check();
    });

  const end = async (signal: NodeJS.Signals) => {
    if (!exited) child.kill(signal);
    await exit;
  };
  const server: ServerProcess = {
    url: `http://127.0.0.1:${options.port}`,
    child,
    stdout: () => out,
    stderr: () => err,
    waitForLine,
    kill: () => end('SIGKILL'),
    stop: () => end('SIGTERM'),
    alive: () => !exited,
  };
  try {
    // the banner's line: text at a terminal or outside production, a JSON line of the log in production
    await waitForLine(/^Campus shell server: |^\{.*"msg":"Campus shell server: /, options.startTimeoutMs ?? 60_000);
  } catch (error) {
    await server.kill();
    throw error;
  }
  return server;
}
