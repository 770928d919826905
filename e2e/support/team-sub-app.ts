import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page } from '@playwright/test';
import type { SubAppManifest } from '@campus/contracts';
import { sdkVersion } from '@campus/subapp-sdk';
import { baseURL, e2eDataDir } from './env.ts';

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

/** A team's app made with the starter, in a folder of its own under the repository's .tmp. */
export interface StarterApp {
  /** The folder the team works in (the starter's archive, the manifest the operator registers). */
  work: string;
  /** The app the starter made, inside `work`. */
  app: string;
  /** Removes `work` and all in it. */
  discard: () => void;
}

/**
 * Downloads the starter from the browser tests' server's /tools and makes `folder` with it, as a team does
 * (`options` such as `--vue` go to the starter).
 */
export async function makeStarterApp(prefix: string, folder: string, options: string[] = []): Promise<StarterApp> {
  mkdirSync(path.join(repoRoot, '.tmp'), { recursive: true });
  const work = mkdtempSync(path.join(repoRoot, '.tmp', `${prefix}-`));
  const discard = () => rmSync(work, { recursive: true, force: true });
  try {
    const download = await fetch(`${baseURL}/tools/${starterArchive}`);
    expect(download.status, `GET /tools/${starterArchive}`).toBe(200);
    writeFileSync(path.join(work, starterArchive), Buffer.from(await download.arrayBuffer()));
    // by its full path: under the repository's folder npm would take a relative one from the repository's root
    run('npx', ['--yes', `--package=file:${path.join(work, starterArchive)}`, '--', 'create-campus-subapp', folder, ...options], work);
  } catch (error) {
    discard();
    throw error;
  }
  return { work, app: path.join(work, folder), discard };
}

/** A starter app built, served from the team's own server and registered in the browser tests' server. */
export interface RegisteredStarterApp {
  /** What `npm install` printed. */
  installOutput: string;
  /** Unregisters the app and stops the team's server. */
  remove: () => Promise<void>;
}

/**
 * The team's `npm install`, `npm test` and `npm run build`, its server for dist/, and the operator's `npm run subapp
 * add` of the manifest the starter wrote (issue 48 item 18), checked to name `appNo` and `label`, with the team's
 * server as its entry.
 */
export async function buildServeAndRegister(starter: StarterApp, expected: { appNo: string; label: string }): Promise<RegisteredStarterApp> {
  const { work, app } = starter;
  const installOutput = run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], app);
  run('npm', ['test'], app);
  run('npm', ['run', 'build'], app);
  const team = await serveFolder(path.join(app, 'dist'));
  try {
    const manifest = JSON.parse(readFileSync(path.join(app, 'subapp-manifest.json'), 'utf8')) as SubAppManifest;
    expect([manifest.appNo, manifest.basePath, manifest.label['en-US']]).toEqual([expected.appNo, expected.appNo, expected.label]);
    manifest.entry = `${team.origin}/`;
    writeFileSync(path.join(work, 'manifest.json'), JSON.stringify(manifest));
    subappCli('add', path.join(work, 'manifest.json'));
  } catch (error) {
    await team.close();
    throw error;
  }
  return {
    installOutput,
    remove: async () => {
      subappCli('remove', expected.appNo);
      await team.close();
    },
  };
}

/** Where a starter app's page shows in the shell. */
export const starterView = (page: Page) => page.locator('#subapp-viewport section.starter-app');

/** Opens the app's page; a server node learns the new origin for its content policy within 30 s. */
export async function openStarterApp(page: Page, appNo: string): Promise<void> {
  await expect(async () => {
    await page.goto(`/${appNo}/home`);
    await expect(starterView(page)).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 60_000, intervals: [2_000] });
}
