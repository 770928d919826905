import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Envelope } from '@campus/contracts';
import { repoRoot } from '../../src/config.ts';
import { freePort } from './free-port.ts';
import { freshDatabase, tempDir } from './helpers.ts';
import type { DatabaseKind } from './helpers.ts';

/**
 * Real server processes on one database, as the nodes of one installation run behind a load balancer: each
 * is `node --import tsx apps/server/src/main.ts` with its own port (and, on PostgreSQL, its own data folder),
 * sharing the database and the system key's KEK file. They start together, so the first start of an empty
 * database is raced as a real deployment races it.
 */

/** The answer of every image code the nodes draw (NODE_ENV=test only). */
export const nodeCaptchaText = 'N0DES';

export interface ServerNode {
  name: string;
  url: string;
  port: number;
  /** What the process wrote (stdout and stderr), for a failing test's message. */
  output: () => string;
  /** Ends the process (SIGTERM, then SIGKILL after 10 s); resolves once it has exited. */
  stop: () => Promise<void>;
  readonly running: boolean;
}

export interface NodeCluster {
  kind: DatabaseKind;
  nodes: ServerNode[];
  /** The environment every node was started with (its own PORT and DATA_DIR aside). */
  env: Record<string, string>;
  /** The shared SQLite data folder, or the first node's (PostgreSQL). */
  dataDir: string;
  close: () => Promise<void>;
}

const children = new Set<ChildProcess>();
// a test run that ends early (a failed hook, Ctrl+C) leaves no server process behind
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

async function waitUntilHealthy(url: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`the server at ${url} stopped with exit code ${child.exitCode}:\n${output()}`);
    if (Date.now() > deadline) throw new Error(`the server at ${url} did not answer /healthz within ${timeoutMs / 1000} s:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function launch(name: string, port: number, env: Record<string, string>): { node: ServerNode; child: ChildProcess } {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'apps', 'server', 'src', 'main.ts')], {
    cwd: repoRoot,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let text = '';
  const keep = (chunk: Buffer) => {
    text += chunk.toString('utf8');
    if (text.length > 400_000) text = text.slice(-200_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => children.delete(child));
  const node: ServerNode = {
    name,
    url: `http://127.0.0.1:${port}`,
    port,
    output: () => text,
    get running() {
      return child.exitCode === null && child.signalCode === null;
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
  return { node, child };
}

/**
 * Starts `count` server processes together on a fresh database of `kind` (PostgreSQL: a new database made
 * from DATABASE_URL; SQLite: one file in a shared data folder) and waits until each answers /healthz.
 */
export async function startNodes(kind: DatabaseKind, count: number, extraEnv: Record<string, string> = {}): Promise<NodeCluster> {
  const shared = tempDir('campus-nodes-');
  const database = await freshDatabase(kind, shared);
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    DATABASE_URL: database.url ?? '',
    SHELL_DIST: path.join(shared, 'no-shell'),
    TEST_CAPTCHA_TEXT: nodeCaptchaText,
    IMAGE_CODE: 'off',
    RATE_LIMIT_PER_MINUTE: '100000',
    // what every node must share besides the database (docs/operating.md "Several server nodes")
    SYSTEM_KEY_KEK_FILE: path.join(shared, 'system-key.kek'),
    ...extraEnv,
  };
  const taken = new Set<number>();
  const started: { node: ServerNode; child: ChildProcess }[] = [];
  try {
    for (let i = 0; i < count; i += 1) {
      const port = await freePort(taken);
      taken.add(port);
      // SQLite: the nodes share the data folder that holds the file; PostgreSQL: each has its own, as on separate machines
      const dataDir = kind === 'sqlite' ? shared : path.join(shared, `node-${i + 1}`);
      started.push(launch(String.fromCharCode(65 + i), port, { ...env, DATA_DIR: dataDir }));
    }
    await Promise.all(started.map(({ node, child }) => waitUntilHealthy(node.url, child, node.output, 60_000)));
  } catch (error) {
    await Promise.all(started.map(({ node }) => node.stop()));
    await database.drop();
    throw error;
  }
  const nodes = started.map((s) => s.node);
  return {
    kind,
    nodes,
    env,
    dataDir: shared,
    close: async () => {
      await Promise.all(nodes.map((node) => node.stop()));
      await database.drop();
      fs.rmSync(shared, { recursive: true, force: true });
    },
  };
}

export interface SendOptions {
  token?: string;
  language?: string;
  headers?: Record<string, string>;
  /** JSON (object or string), or raw bytes with their content type in `headers`. */
  body?: unknown;
  /** The address the request leaves from (any of 127.0.0.0/8), as another client would. */
  localAddress?: string;
}

export interface SendReply<T = unknown> {
  status: number;
  body: Envelope<T>;
  text: string;
  headers: http.IncomingHttpHeaders;
}

/** One HTTP call (node:http, so a test can pick the client's own address); the reply parsed as an envelope. */
export function send<T = unknown>(base: { url: string }, method: 'GET' | 'POST', urlPath: string, options: SendOptions = {}): Promise<SendReply<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.token = options.token;
  if (options.language) headers.language = options.language;
  let payload: Buffer | undefined;
  if (Buffer.isBuffer(options.body)) payload = options.body;
  else if (options.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    payload = Buffer.from(typeof options.body === 'string' ? options.body : JSON.stringify(options.body), 'utf8');
  }
  if (payload) headers['content-length'] = String(payload.length);
  const url = new URL(urlPath, base.url);
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers, localAddress: options.localAddress, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: Envelope<T>;
        try {
          body = JSON.parse(text) as Envelope<T>;
        } catch {
          body = { code: -1, msg: text, data: undefined as T };
        }
        resolve({ status: res.statusCode ?? 0, body, text, headers: res.headers });
      });
    });
    request.on('error', reject);
    request.end(payload);
  });
}

/** A multipart/form-data body of files in the field `files` (as the shell's upload sends it). */
export async function multipart(files: { name: string; body: Buffer | string }[]): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  for (const f of files) form.append('files', new Blob([typeof f.body === 'string' ? f.body : new Uint8Array(f.body)]), f.name);
  const encoded = new Response(form);
  return { body: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type') ?? '' };
}
