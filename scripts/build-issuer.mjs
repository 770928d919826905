// `npm run build:issuer`: the card issuer as a self-contained download for the operator's PC (issue 12), one
// archive per platform with a Node runtime from the npm registry inside: dist/card-issuer/card-issuer-linux-x64.tar.gz
// and card-issuer-win-x64.zip. The server offers them under /tools on gate deployments.
// `--bundle-only` makes only the platform-neutral bundle (app/), which the tests start with this machine's Node.
// `--when-changed` (run by `npm run build`, so `npm start` offers the downloads out of the box): the archives are
// made again only when the bundle or this script changed since they were made (a second or so otherwise), and a
// runtime that cannot be fetched (no network) is a warning, not a failed build.
import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { issuerReadme } from './issuer-readme.mjs';
import { bundleWindowsService, writeWindowsCmdScripts } from './issuer-windows-service.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist', 'card-issuer');
const nodeLine = '24';

/** The issuer and its dependencies as one ES module, with its panel beside it. */
export async function bundleIssuer(target = path.join(out, 'app')) {
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  await build({
    entryPoints: [path.join(root, 'apps/card-issuer/src/main.ts')],
    outfile: path.join(target, 'card-issuer.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // the API description's browser UI reads its files from its package folder: the download serves /docs/json only
    // koffi finds its native binary beside its own files: its scripts and a binary are copied into app/node_modules
    external: ['@fastify/swagger-ui', 'koffi'],
    banner: { js: "import { createRequire as __campusRequire } from 'node:module'; const require = __campusRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  cpSync(path.join(root, 'apps/card-issuer/panel'), path.join(target, 'panel'), { recursive: true });
  copyKoffiScripts(target);
  // the bundle alone runs on this machine (the tests start it so): with this machine's koffi binary, where npm
  // installed one (an install without optional packages has none: the bundle then drives the virtual reader only)
  const hostBinary = path.join(root, 'node_modules', '@koromix', `koffi-${process.platform}-${process.arch}`);
  if (existsSync(hostBinary)) addKoffiBinary(target, hostBinary);
  else console.warn(`koffi has no binary for ${process.platform}-${process.arch} here: the bundle drives the virtual reader only.`);
  return target;
}

const koffiFolder = path.join(root, 'node_modules', 'koffi');
const koffiVersion = () => JSON.parse(readFileSync(path.join(koffiFolder, 'package.json'), 'utf8')).version;

/** koffi's JavaScript (the PC/SC driver's FFI): what its entry point loads, without its C sources and build tools. */
function copyKoffiScripts(app) {
  const keep = (file) => {
    const relative = path.relative(koffiFolder, file);
    if (relative === '') return true;
    if (/^(vendor|doc|lib|build)(\/|$)/.test(relative) || relative === 'cnoke.cjs') return false;
    return !path.extname(relative) || /\.(js|cjs)$/.test(relative) || relative === 'package.json' || relative === 'LICENSE.txt';
  };
  cpSync(koffiFolder, path.join(app, 'node_modules', 'koffi'), { recursive: true, filter: keep });
}

/** One platform's prebuilt koffi binary package (@koromix/koffi-<os>-<cpu>), where koffi's loader looks for it. */
function addKoffiBinary(app, folder) {
  if (!existsSync(folder)) throw new Error(`koffi's binary package ${folder} is missing: run npm install`);
  cpSync(folder, path.join(app, 'node_modules', '@koromix', path.basename(folder)), { recursive: true });
}

/** The koffi binary package of `platform`: this machine's when it is that platform, else fetched from the npm registry. */
function koffiBinaryOf(platform) {
  const pkg = `koffi-${platform.replace(/^win-/, 'win32-')}`;
  const local = path.join(root, 'node_modules', '@koromix', pkg);
  if (existsSync(local)) return local;
  const dir = path.join(root, '.tmp', `${pkg}-${koffiVersion()}`);
  const folder = path.join(dir, 'node_modules', '@koromix', pkg);
  if (!existsSync(folder)) {
    console.log(`Fetching @koromix/${pkg}@${koffiVersion()} from the npm registry ...`);
    execFileSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--no-save', '--force', `@koromix/${pkg}@${koffiVersion()}`], { stdio: 'inherit' });
  }
  return folder;
}

function runtime(platform) {
  const dir = path.join(root, '.tmp', `node-${platform}`);
  const pkg = `node-${platform}@${nodeLine}`;
  const folder = path.join(dir, 'node_modules', `node-${platform}`);
  if (!existsSync(folder)) {
    console.log(`Fetching ${pkg} from the npm registry ...`);
    execFileSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--no-save', '--force', pkg], { stdio: 'inherit' });
  }
  return platform.startsWith('win') ? path.join(folder, 'bin', 'node.exe') : path.join(folder, 'bin', 'node');
}

function zip(folder, archive) {
  const result = spawnSync('python3', ['-m', 'zipfile', '-c', archive, path.basename(folder)], { cwd: path.dirname(folder), stdio: 'inherit' });
  if (result.status !== 0) throw new Error('zip failed (python3 -m zipfile)');
}

const platforms = ['linux-x64', 'win-x64'];
const archiveOf = (platform) => `card-issuer-${platform}${platform.startsWith('win') ? '.zip' : '.tar.gz'}`;
const stampFile = path.join(out, '.made-from');

/** What the archives are made of: the bundle's files, the scripts that make them (start scripts, README) and the Node line. */
function fingerprint(...bundles) {
  const hash = createHash('sha256').update(nodeLine);
  // this script and the two that write the archives' other files (README, .cmd scripts)
  for (const script of ['build-issuer.mjs', 'issuer-readme.mjs', 'issuer-windows-service.mjs']) hash.update(readFileSync(path.join(root, 'scripts', script)));
  for (const bundle of bundles) {
    const files = readdirSync(bundle, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name))
      .sort();
    for (const file of files) hash.update(path.relative(out, file)).update('\0').update(readFileSync(file));
  }
  return hash.digest('hex');
}

function upToDate(made) {
  return existsSync(stampFile) && readFileSync(stampFile, 'utf8').trim() === made && platforms.every((platform) => existsSync(path.join(out, archiveOf(platform))));
}

async function main() {
  const app = await bundleIssuer();
  if (process.argv.includes('--bundle-only')) {
    console.log(`Bundled the card issuer into ${app}`);
    return;
  }
  const whenChanged = process.argv.includes('--when-changed');
  // the Windows service and its installer (app/service.mjs, app/service-install.mjs of the zip), bundled apart
  const windowsApp = path.join(out, 'app-windows');
  rmSync(windowsApp, { recursive: true, force: true });
  await bundleWindowsService(windowsApp);
  const made = fingerprint(app, windowsApp);
  if (whenChanged && upToDate(made)) {
    console.log(`The card issuer downloads in ${out} are up to date.`);
    return;
  }
  rmSync(stampFile, { force: true });
  try {
    await makeArchives(app, windowsApp);
  } catch (error) {
    if (!whenChanged) throw error;
    console.warn(`The card issuer downloads were not made (${error instanceof Error ? error.message : String(error)}): run npm run build:issuer when the npm registry can be reached.`);
    return;
  }
  writeFileSync(stampFile, `${made}\n`);
}

async function makeArchives(app, windowsApp) {
  for (const platform of platforms) {
    const name = `card-issuer-${platform}`;
    const folder = path.join(out, name);
    rmSync(path.join(out, archiveOf(platform)), { force: true });
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    cpSync(app, path.join(folder, 'app'), { recursive: true, filter: (file) => !file.includes(`${path.sep}@koromix${path.sep}`) });
    addKoffiBinary(path.join(folder, 'app'), koffiBinaryOf(platform));
    const node = runtime(platform);
    const windows = platform.startsWith('win');
    cpSync(node, path.join(folder, windows ? 'node.exe' : 'node'));
    writeFileSync(path.join(folder, 'README.txt'), issuerReadme(platform));
    if (windows) {
      cpSync(windowsApp, path.join(folder, 'app'), { recursive: true });
      writeWindowsCmdScripts(folder);
      writeFileSync(path.join(folder, 'start.cmd'), '@echo off\r\nif "%CARD_ISSUER_DATA_DIR%"=="" set CARD_ISSUER_DATA_DIR=%~dp0data\r\n"%~dp0node.exe" "%~dp0app\\card-issuer.mjs"\r\n');
      zip(folder, `${name}.zip`);
    } else {
      writeFileSync(path.join(folder, 'start.sh'), '#!/bin/sh\nhere=$(dirname "$0")\n: "${CARD_ISSUER_DATA_DIR:=$here/data}"\nexport CARD_ISSUER_DATA_DIR\nexec "$here/node" "$here/app/card-issuer.mjs" "$@"\n', { mode: 0o755 });
      execFileSync('tar', ['-czf', `${name}.tar.gz`, name], { cwd: out });
    }
    console.log(`Made ${path.join(out, windows ? `${name}.zip` : `${name}.tar.gz`)}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`build:issuer failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
