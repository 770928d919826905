import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sdkVersion } from '@campus/subapp-sdk';
import { e2eDataDir } from './env.ts';

// What the browser tests of another company's sub-app share: a command run as the team runs it, the team's own
// server for its build, and the operator's `npm run subapp` on the browser tests' server's data.

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The starter as /tools offers it. */
export const starterArchive = `create-campus-subapp-${sdkVersion}.tgz`;

/** Runs a command to its end; a failure throws with the end of its output. */
export function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, ...env } });
  const output = `${result.stdout}\n${result.stderr}`;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status}):\n${output.slice(-3000)}`);
  return output;
}

/** The team's server: the app's dist/ folder with CORS, read afresh at each request (a new build shows at once). */
export async function serveFolder(folder: string): Promise<{ origin: string; close: () => Promise<void> }> {
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };
  const server = http.createServer((request, response) => {
    const headers = { 'access-control-allow-origin': '*', 'cache-control': 'no-store' };
    const name = decodeURIComponent((request.url ?? '/').split('?')[0]!).replace(/^\/+/, '') || 'index.html';
    const file = path.join(folder, path.basename(name));
    try {
      if (!statSync(file).isFile()) throw new Error('not a file');
      response.writeHead(200, { ...headers, 'content-type': types[path.extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
    } catch {
      response.writeHead(404, headers).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The server's own command line, on the data of this worker's server (e2e/support/env.ts). */
export function subappCli(...args: string[]): string {
  return run('npm', ['run', '--silent', 'subapp', '--', ...args], repoRoot, { DATA_DIR: e2eDataDir, DATABASE_URL: '' });
}
