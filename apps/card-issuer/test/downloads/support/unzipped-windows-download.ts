import fs from 'node:fs';
import path from 'node:path';
// @ts-expect-error: a plain script without type declarations
import { ensureWineRoot } from '../../../../../scripts/wine-lab/wine-root.mjs';
import { RootSession } from './root-session.ts';
import type { RootNetwork } from './root-session.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..', '..', '..');
const distDir = path.join(repoRoot, 'dist', 'card-issuer');
export const windowsArchive = path.join(distDir, 'card-issuer-win-x64.zip');

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

export interface UnzippedWindowsDownload {
  session: RootSession;
  /** The download's folder inside the root, as the operator unzipped it (the folder of start.cmd and card.cmd). */
  folder: string;
  /** How long the root, the overlay and the unzip took (e.g. "unzip 0.8 s"). */
  timings: string[];
}

/**
 * A run in the cached Wine root (made once per machine, about 2 minutes) with card-issuer-win-x64.zip as
 * `node scripts/build-issuer.mjs` built it unzipped in it, the way an operator unzips it on a PC: nothing of it is
 * laid out by the test. `binds` are host folders shown in the root.
 */
export async function openUnzippedWindowsDownload(binds: { from: string; to: string }[], network: RootNetwork): Promise<UnzippedWindowsDownload> {
  if (!fs.existsSync(windowsArchive)) throw new Error(`${windowsArchive} is missing: run node scripts/build-issuer.mjs first`);
  let started = Date.now();
  const root = (ensureWineRoot as (options: { log: (line: string) => void }) => string)({ log: (line) => console.log(line) });
  const timings = [`root ready ${seconds(started)}`];
  started = Date.now();
  const session = await RootSession.open(root, [...binds, { from: distDir, to: '/dist' }], network);
  timings.push(`overlay and namespace ${seconds(started)}`);
  const folder = '/opt/operator-pc/card-issuer-win-x64';
  try {
    started = Date.now();
    const unzip = await session.run(`mount -o remount,bind,ro /dist && mkdir -p ${path.posix.dirname(folder)} && cd ${path.posix.dirname(folder)} && unzip -q /dist/${path.basename(windowsArchive)}`);
    if (unzip.status !== 0) throw new Error(`unzip in the Wine root failed: ${unzip.stderr}`);
    timings.push(`unzip ${seconds(started)}`);
  } catch (error) {
    await session.close();
    throw error;
  }
  return { session, folder, timings };
}
