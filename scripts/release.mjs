// `npm run release [-- --platform linux-x64[,linux-arm64]] [--out DIR] [--no-build]`: the archive a customer installs
// with no network and no compiler (DESIGN.md §10): release/campus-shell-<version>-<platform>.tar.gz and its .sha256.
// Inside: Node 24, the server compiled with esbuild, the native addons, the built shell and sub-app, the card issuer
// downloads, the docs, install.sh, the systemd units, the TLS nginx site, the monitoring files (deploy/), SHA256SUMS.
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildVersion, releaseLine } from './release/build-version.mjs';
import { bundleServer, shippedPackages } from './release/bundle.mjs';
import { writeArchiveSum, writeSha256Sums } from './release/checksums.mjs';
import { addNodeRuntime, nodeVersion, platforms } from './release/node-runtime.mjs';
import { writeNotices } from './release/notices.mjs';
import { addNativeAddons, copyRuntimePackages } from './release/runtime-deps.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cacheDir = path.join(root, '.cache', 'release');

function fail(message) {
  console.error(`release: ${message}`);
  process.exit(1);
}

const builtFolders = ['apps/shell/dist', 'apps/subapp-qy/dist', 'dist/card-issuer', 'dist/subapp-sdk'];
const issuerDownloads = ['card-issuer-linux-x64.tar.gz', 'card-issuer-win-x64.zip'];

function ensureBuilds(noBuild) {
  if (!noBuild) {
    console.log('Building the shell, the sub-app, the card issuer downloads and the sub-app SDK package (npm run build) ...');
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  }
  for (const folder of builtFolders) {
    if (!existsSync(path.join(root, folder))) fail(`${folder} is missing: run without --no-build (or npm run build) first`);
  }
  for (const download of issuerDownloads) {
    if (!existsSync(path.join(root, 'dist/card-issuer', download))) fail(`dist/card-issuer/${download} is missing: npm run build:issuer (it needs the npm registry once)`);
  }
  if (!existsSync(path.join(root, 'apps/shell/dist/index.html'))) fail('apps/shell/dist/index.html is missing: the shell build is incomplete');
}

const copy = (from, to) => cpSync(path.join(root, from), to, { recursive: true, dereference: true });

function writeExecutable(file, text) {
  writeFileSync(file, text);
  chmodSync(file, 0o755);
}

/**
 * The archive's CHANGELOG.md: what is not released yet ("## Unreleased") is headed with this build's version, so the
 * section an operator reads is the build they install; released sections stay as they are.
 */
export function releaseChangelog(text, version) {
  return text.replace(/^## Unreleased$/m, `## ${version}`);
}

async function makeRelease(platform, version, outDir) {
  const name = `campus-shell-${version}`;
  const staging = path.join(root, '.tmp', 'release', platform);
  const dir = path.join(staging, name);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  console.log(`\n== ${name} (${platform}, Node ${nodeVersion})`);

  addNodeRuntime(cacheDir, platform, dir);
  const bundle = await bundleServer(root, dir, { version });
  console.log(`Bundled: ${bundle.names.map((entry) => `apps/server/dist/${entry}.mjs`).join(', ')}`);
  const shippedDirs = [...copyRuntimePackages(root, dir, shippedPackages), ...addNativeAddons(root, dir, platform, cacheDir)];
  // the bundles are ES modules whatever a parent package.json says
  writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ name: 'campus-shell-release', version, private: true, type: 'module' }, null, 2)}\n`);
  writeNotices(root, dir, { bundledPackages: bundle.bundledPackages, shippedDirs });

  copy('apps/shell/dist', path.join(dir, 'apps/shell/dist'));
  copy('apps/subapp-qy/dist', path.join(dir, 'apps/subapp-qy/dist'));
  // the downloads the server offers under /tools (tools-service.ts), not their unpacked folders
  for (const download of issuerDownloads) copy(`dist/card-issuer/${download}`, path.join(dir, 'dist/card-issuer', download));
  // the sub-app SDK's package and guide, offered under /tools on every deployment
  copy('dist/subapp-sdk', path.join(dir, 'dist/subapp-sdk'));
  copy('docs', path.join(dir, 'docs'));
  copy('README.md', path.join(dir, 'README.md'));
  writeFileSync(path.join(dir, 'CHANGELOG.md'), releaseChangelog(readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8'), version));
  copy('apps/server/CONFIG.md', path.join(dir, 'apps/server/CONFIG.md'));
  // the image code's spoken characters (modules/auth/captcha-audio.ts reads them from here)
  copy('apps/server/captcha-voices', path.join(dir, 'apps/server/captcha-voices'));
  copy('deploy/systemd', path.join(dir, 'deploy/systemd'));
  copy('deploy/nginx', path.join(dir, 'deploy/nginx'));
  // the Prometheus alert rules and the Grafana dashboard (docs/operating.md "Watching it")
  copy('deploy/monitoring', path.join(dir, 'deploy/monitoring'));
  copy('deploy/release/campus.env.template', path.join(dir, 'deploy/campus.env.template'));
  mkdirSync(path.join(dir, 'bin'), { recursive: true });
  mkdirSync(path.join(dir, 'lib'), { recursive: true });
  writeExecutable(path.join(dir, 'lib', 'run-node'), readFileSync(path.join(root, 'deploy/release/run-node.sh'), 'utf8'));
  for (const script of ['campus', 'campus-server']) writeExecutable(path.join(dir, 'bin', script), readFileSync(path.join(root, 'deploy/release/bin', script), 'utf8'));
  writeExecutable(path.join(dir, 'install.sh'), readFileSync(path.join(root, 'deploy/release/install.sh'), 'utf8'));
  writeFileSync(path.join(dir, 'VERSION'), `${version}\n`);
  writeSha256Sums(dir);

  mkdirSync(outDir, { recursive: true });
  const archive = path.join(outDir, `${name}-${platform}.tar.gz`);
  // the same inputs make the same archive: sorted names, fixed times and owners, gzip without a timestamp
  const tar = ['--sort=name', '--mtime=@0', '--owner=0', '--group=0', '--numeric-owner', '-C', staging, '-cf', '-', name];
  execFileSync('sh', ['-c', `tar ${tar.map((arg) => `'${arg}'`).join(' ')} | gzip -n -9 > '${archive}'`], { stdio: 'inherit' });
  writeArchiveSum(archive);
  rmSync(staging, { recursive: true, force: true });
  console.log(`Made ${path.relative(process.cwd(), archive)} and its .sha256`);
  return archive;
}

async function main() {
  let options;
  try {
    ({ values: options } = parseArgs({
      options: {
        platform: { type: 'string', default: 'linux-x64' },
        out: { type: 'string', default: path.join(root, 'release') },
        'no-build': { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    fail(`${error.message}\nusage: npm run release -- [--platform linux-x64[,linux-arm64]] [--out DIR] [--no-build]`);
  }
  if (options.help) {
    console.log('usage: npm run release -- [--platform linux-x64[,linux-arm64]] [--out DIR] [--no-build]');
    return;
  }
  const wanted = options.platform.split(',').map((value) => value.trim()).filter(Boolean);
  for (const platform of wanted) if (!platforms.includes(platform)) fail(`unknown platform "${platform}" (known: ${platforms.join(', ')})`);
  if (wanted.length === 0) fail('--platform names no platform');
  const line = releaseLine(root);
  const version = buildVersion(root);
  // a release says what it changed: the deployment team reads it before they upgrade
  if (!readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8').includes(`\n## ${line}\n`)) fail(`CHANGELOG.md has no section "## ${line}": say what this release changes first`);
  if (version.includes('.dirty') || version.endsWith('+nogit')) console.warn(`release: building ${version}: ${version.endsWith('+nogit') ? 'not from a git checkout' : 'the tree has changes that are not committed'}, so this build names no clean commit`);
  console.log(`Version of this build: ${version}`);
  ensureBuilds(options['no-build']);
  for (const platform of wanted) await makeRelease(platform, version, path.resolve(options.out));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => fail(error instanceof Error ? error.message : String(error)));
}
