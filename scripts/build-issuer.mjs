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

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist', 'card-issuer');
const nodeLine = '24';

const readme = (platform) => `Campus card issuer (${platform})
================================

The local card-issuer service of gate deployments: it runs on the operator's PC, next to the card reader,
and the campus shell in the browser talks to it (http://127.0.0.1:18085).

Supports:  ${
  platform.startsWith('win')
    ? 'Windows 10 and 11 (x64), the virtual reader only. Real card readers (PC/SC) are not supported by this\n           download yet: use the Linux download or a source install for them.'
    : 'Linux x64 with glibc (Debian 11+, Ubuntu 20.04+ and alike), the virtual reader, and real card readers\n           through pcscd (PC/SC) when this download holds the PC/SC binding (app/node_modules/smartcard).'
}

Start it:  ${platform.startsWith('win') ? 'double-click start.cmd (or run it in a console)' : './start.sh'}
Stop it:   Ctrl+C

Settings (environment variables):
  CARD_ISSUER_ALLOWED_ORIGINS  the address of the campus shell, e.g. https://campus.example.com (required
                               unless the shell runs on this PC at http://127.0.0.1:6300)
  CARD_ISSUER_PORT             18085
  CARD_ISSUER_DATA_DIR         ./data (the issuer's device key; the virtual reader's cards)
${
  platform.startsWith('win')
    ? '  CARD_READER                  virtual (a simulated reader; real PC/SC readers need the Linux download or\n                               a source install for now)\n'
    : '  CARD_READER                  virtual (a simulated reader), or pcsc for a real reader through pcscd\n                               (sudo apt-get install pcscd; plug the reader in)\n  CARD_READER_NAME             pcsc: the reader to use (its name or the start of it); the first one if unset\n  CARD_FILE_ID                 pcsc: the card file that holds the card image, 0101\n'
}
The reader panel: http://127.0.0.1:18085/reader
`;

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
    external: ['@fastify/swagger-ui'],
    banner: { js: "import { createRequire as __campusRequire } from 'node:module'; const require = __campusRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  cpSync(path.join(root, 'apps/card-issuer/panel'), path.join(target, 'panel'), { recursive: true });
  return target;
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

/**
 * The PC/SC binding (an N-API addon, built here for Linux x64 against libpcsclite) goes into the Linux download beside
 * the bundle, which loads it only with CARD_READER=pcsc. Its Windows build cannot be made on this machine.
 */
function addPcscBinding(app) {
  const binding = path.join(root, 'node_modules', 'smartcard');
  const addon = path.join(binding, 'build', 'Release', 'smartcard_napi.node');
  if (!existsSync(addon)) {
    console.warn('The PC/SC binding is not built here (libpcsclite-dev missing?): the Linux download supports the virtual reader only.');
    return;
  }
  const target = path.join(app, 'node_modules', 'smartcard');
  cpSync(path.join(binding, 'package.json'), path.join(target, 'package.json'));
  cpSync(path.join(binding, 'dist', 'lib'), path.join(target, 'dist', 'lib'), { recursive: true, filter: (file) => !file.endsWith('.map') && !file.endsWith('.d.ts') });
  cpSync(addon, path.join(target, 'build', 'Release', 'smartcard_napi.node'));
}

function zip(folder, archive) {
  const result = spawnSync('python3', ['-m', 'zipfile', '-c', archive, path.basename(folder)], { cwd: path.dirname(folder), stdio: 'inherit' });
  if (result.status !== 0) throw new Error('zip failed (python3 -m zipfile)');
}

const platforms = ['linux-x64', 'win-x64'];
const archiveOf = (platform) => `card-issuer-${platform}${platform.startsWith('win') ? '.zip' : '.tar.gz'}`;
const stampFile = path.join(out, '.made-from');

/** What the archives are made of: the bundle's files, this script (start scripts, README) and the Node line. */
function fingerprint(app) {
  const hash = createHash('sha256').update(readFileSync(fileURLToPath(import.meta.url))).update(nodeLine);
  const files = readdirSync(app, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
  for (const file of files) hash.update(path.relative(app, file)).update('\0').update(readFileSync(file));
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
  const made = fingerprint(app);
  if (whenChanged && upToDate(made)) {
    console.log(`The card issuer downloads in ${out} are up to date.`);
    return;
  }
  rmSync(stampFile, { force: true });
  try {
    await makeArchives(app);
  } catch (error) {
    if (!whenChanged) throw error;
    console.warn(`The card issuer downloads were not made (${error instanceof Error ? error.message : String(error)}): run npm run build:issuer when the npm registry can be reached.`);
    return;
  }
  writeFileSync(stampFile, `${made}\n`);
}

async function makeArchives(app) {
  for (const platform of platforms) {
    const name = `card-issuer-${platform}`;
    const folder = path.join(out, name);
    rmSync(path.join(out, archiveOf(platform)), { force: true });
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    cpSync(app, path.join(folder, 'app'), { recursive: true });
    const node = runtime(platform);
    const windows = platform.startsWith('win');
    if (!windows) addPcscBinding(path.join(folder, 'app'));
    cpSync(node, path.join(folder, windows ? 'node.exe' : 'node'));
    writeFileSync(path.join(folder, 'README.txt'), readme(platform));
    if (windows) {
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
