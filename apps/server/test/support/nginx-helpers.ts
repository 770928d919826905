import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { repoRoot } from '../../src/config.ts';
import { tempDir } from './helpers.ts';
import { freePort } from './free-port.ts';

/** Debian's nginx (`npm test` installs it as root: scripts/system-deps.mjs). */
export const nginxBinary = '/usr/sbin/nginx';
export const nginxTemplate = path.join(repoRoot, 'deploy', 'nginx', 'campus-shell.conf');

export interface Nginx {
  url: string;
  port: number;
  accessLog: () => string;
  errorLog: () => string;
  stop: () => Promise<void>;
}

/**
 * The repository's template with the test's own nodes and port: only the lines marked `# node` and `# listen`
 * and the log folder change, so every other setting is the one a deployment copies.
 */
export function renderSite(template: string, upstreams: readonly string[], port: number, logDir: string): string {
  const lines = template.split('\n');
  const nodeLines = lines.filter((line) => /^\s*server\s+\S+;?.*#\s*node\s*$/.test(line));
  const listenLines = lines.filter((line) => /^\s*listen\s+.*#\s*listen\s*$/.test(line));
  if (nodeLines.length === 0 || listenLines.length !== 1) throw new Error(`${nginxTemplate} must keep its "# node" upstream lines and one "# listen" line`);
  const first = nodeLines[0]!;
  const rendered: string[] = [];
  for (const line of lines) {
    if (line === first) {
      for (const upstream of upstreams) rendered.push(line.replace(/server\s+\S+/, `server ${upstream}`));
    } else if (nodeLines.includes(line)) {
      continue;
    } else if (listenLines.includes(line)) {
      rendered.push(line.replace(/listen\s+[^;]+;/, `listen 127.0.0.1:${port};`));
    } else {
      rendered.push(line.replaceAll('/var/log/nginx/', `${logDir}/`));
    }
  }
  return rendered.join('\n');
}

function waitForPort(port: number, child: ChildProcess, errors: () => string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (child.exitCode !== null) return reject(new Error(`nginx stopped with exit code ${child.exitCode}:\n${errors()}`));
      const socket = net.connect({ host: '127.0.0.1', port }, () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`nginx did not listen on ${port} within ${timeoutMs / 1000} s:\n${errors()}`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

/**
 * nginx in the foreground (`daemon off`) with everything it writes (pid, logs, temporary bodies) in a folder of
 * its own, listening on a free loopback port, in front of `upstreams` (host:port).
 */
export async function startNginx(upstreams: readonly string[]): Promise<Nginx> {
  const port = await freePort();
  return startNginxSite((prefix) => renderSite(fs.readFileSync(nginxTemplate, 'utf8'), upstreams, port, prefix), port);
}

/** nginx as startNginx runs it, with the site `site` makes for its folder; ready once `port` takes connections. */
export async function startNginxSite(site: (prefix: string) => string, port: number): Promise<Nginx> {
  const prefix = tempDir('campus-nginx-');
  // run as root, nginx's workers are `nobody`: they write temporary bodies (uploads over 1 MiB) here
  fs.chmodSync(prefix, 0o755);
  const temp = path.join(prefix, 'temp');
  fs.mkdirSync(temp, { mode: 0o777 });
  fs.chmodSync(temp, 0o777);
  fs.writeFileSync(path.join(prefix, 'campus-shell.conf'), site(prefix));
  const main = [
    `pid ${prefix}/nginx.pid;`,
    `error_log ${prefix}/main-error.log warn;`,
    'worker_processes 1;',
    'events { worker_connections 256; }',
    'http {',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${temp}/${kind};`),
    `  access_log ${prefix}/access.log;`,
    `  include ${prefix}/campus-shell.conf;`,
    '}',
    '',
  ].join('\n');
  const conf = path.join(prefix, 'nginx.conf');
  fs.writeFileSync(conf, main);
  const child = spawn(nginxBinary, ['-p', prefix, '-c', conf, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // a test run that ends early leaves no nginx behind (TERM: the master stops its workers)
  const onExit = () => child.kill('SIGTERM');
  process.once('exit', onExit);
  void exited.then(() => process.off('exit', onExit));
  const read = (file: string) => {
    try {
      return fs.readFileSync(path.join(prefix, file), 'utf8');
    } catch {
      return '';
    }
  };
  const errorLog = () => `${stderr}${read('main-error.log')}${read('campus-shell.error.log')}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGQUIT'); // graceful: the master ends once its workers have
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(prefix, { recursive: true, force: true });
  };
  try {
    await waitForPort(port, child, errorLog);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}`, port, accessLog: () => read('campus-shell.access.log'), errorLog, stop };
}
