// Issue 48 item 20, nothing built twice: CI's release test and upgrade test (.ci/run) each want this checkout's
// linux-x64 archive. The first one to build it keeps a copy in .cache/release-archives/<platform>/ with what it was
// made from; the next one takes that copy instead of building again, when it was made from the same clean commit
// (no change that is not committed, no untracked file), from the same built files (the shell, the sub-app, the card
// issuer's downloads, the SDK package: what scripts/release.mjs copies without building them); the packages it
// bundles are package-lock.json's at that commit (npm ci). Anything else, or a tree with changes, builds afresh. Each
// says which. (node_modules/.package-lock.json is no sign: the upgrade test hard-links node_modules into old
// checkouts, and npm there rewrites that file through the link.)
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildVersion, sourceState } from './build-version.mjs';
import { sha256 } from './checksums.mjs';

/** What scripts/release.mjs copies into the archive as it finds it (`--no-build`). */
const builtInputs = [
  'apps/shell/dist',
  'apps/subapp-qy/dist',
  'dist/card-issuer/card-issuer-linux-x64.tar.gz',
  'dist/card-issuer/card-issuer-win-x64.zip',
  'dist/subapp-sdk',
];

/** Whether the built files release.mjs needs are there (otherwise it builds them first). */
export function releaseInputsBuilt(root) {
  return existsSync(path.join(root, 'apps/shell/dist/index.html')) && builtInputs.every((input) => existsSync(path.join(root, input)));
}

function hashInto(hash, root, relative) {
  const full = path.join(root, relative);
  const stat = lstatSync(full);
  if (stat.isDirectory()) {
    for (const entry of readdirSync(full).sort()) hashInto(hash, root, `${relative}/${entry}`);
  } else if (stat.isFile()) {
    hash.update(`${relative}\0${stat.size}\0`);
    hash.update(readFileSync(full));
  }
}

/** One SHA-256 over the names and contents of the built inputs. */
export function builtInputsHash(root) {
  const hash = createHash('sha256');
  for (const input of builtInputs) hashInto(hash, root, input);
  return hash.digest('hex');
}

/**
 * What an archive of this checkout would be made from, as a key ({platform, version, commit, built}), or why it may
 * neither be taken from the cache nor kept there ({reason}).
 */
export function archiveSource(root, platform) {
  const state = sourceState(root);
  if (!state) return { reason: 'not a git checkout, so no commit names what it was built from' };
  if (state.dirty) return { reason: 'the tree has changes that are not committed (or files git does not track)' };
  if (!releaseInputsBuilt(root)) return { reason: 'the shell, the sub-app or the card issuer downloads are not built yet' };
  return { key: { platform, version: buildVersion(root), commit: state.commit, built: builtInputsHash(root) } };
}

const sameKey = (a, b) => ['platform', 'version', 'commit', 'built'].every((field) => a?.[field] === b?.[field]);

/** The cache folder of one platform: its one archive, the archive's .sha256 and source.json. */
const cacheFolder = (root, platform) => path.join(root, '.cache', 'release-archives', platform);

/**
 * The archive in the cache for `key`, checked against its .sha256, or why there is none (the reason said in the
 * output).
 */
function cachedArchive(root, key) {
  const folder = cacheFolder(root, key.platform);
  let stored;
  try {
    stored = JSON.parse(readFileSync(path.join(folder, 'source.json'), 'utf8'));
  } catch {
    return { reason: 'none built before' };
  }
  if (!sameKey(stored, key)) {
    const what = stored.commit !== key.commit ? `commit ${String(stored.commit).slice(0, 7)}` : 'other built files';
    return { reason: `the one kept was built from ${what}` };
  }
  const archive = path.join(folder, stored.archive);
  if (!existsSync(archive) || !existsSync(`${archive}.sha256`)) return { reason: 'the one kept is gone' };
  if (readFileSync(`${archive}.sha256`, 'utf8').split(/\s+/)[0] !== sha256(archive)) return { reason: 'the one kept does not match its .sha256' };
  return { archive };
}

/** Keeps `archive` (and its .sha256) as the platform's one archive in the cache, for `key`. */
function keepArchive(root, key, archive) {
  const folder = cacheFolder(root, key.platform);
  // written aside, then renamed over: a run that reads the cache meanwhile sees the old one whole or the new one
  const staging = `${folder}.new-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const name = path.basename(archive);
  copyFileSync(archive, path.join(staging, name));
  copyFileSync(`${archive}.sha256`, path.join(staging, `${name}.sha256`));
  writeFileSync(path.join(staging, 'source.json'), `${JSON.stringify({ ...key, archive: name }, null, 2)}\n`);
  rmSync(folder, { recursive: true, force: true });
  renameSync(staging, folder);
}

/** scripts/release.mjs for one platform into `outDir`, building the shell first unless it is built. */
function runRelease(root, platform, outDir) {
  const built = releaseInputsBuilt(root);
  execFileSync(process.execPath, [path.join(root, 'scripts/release.mjs'), '--platform', platform, '--out', outDir, ...(built ? ['--no-build'] : [])], { cwd: root, stdio: 'inherit' });
}

/**
 * This checkout's `platform` archive in `outDir` (with its .sha256): taken from the cache when one was built from the
 * same commit and built files, built with scripts/release.mjs otherwise (`build`, its stand-in in a test) and then
 * kept when the tree is clean. `who` names the caller in the line that says which, and why it built. Returns
 * {archive, reused}.
 */
export function releaseArchive(root, { platform = 'linux-x64', outDir, who, build = runRelease, log = console.log }) {
  const source = archiveSource(root, platform);
  const cached = source.key ? cachedArchive(root, source.key) : { reason: source.reason };
  mkdirSync(outDir, { recursive: true });
  if (cached.archive) {
    const archive = path.join(outDir, path.basename(cached.archive));
    copyFileSync(cached.archive, archive);
    copyFileSync(`${cached.archive}.sha256`, `${archive}.sha256`);
    log(`${who}: reused the release archive ${path.basename(archive)}, built before from the same commit ${source.key.commit.slice(0, 7)} and the same built files (${path.relative(root, cached.archive)}), instead of building it again`);
    return { archive, reused: true };
  }
  log(`${who}: building the ${platform} release archive (no archive to reuse: ${cached.reason})`);
  build(root, platform, outDir);
  const name = readdirSync(outDir).find((file) => file.endsWith(`-${platform}.tar.gz`));
  if (!name) throw new Error(`scripts/release.mjs made no ${platform} archive in ${outDir}`);
  const archive = path.join(outDir, name);
  // what it was made from, read again after the build: a build without --no-build made the built files just now
  // (and when the built files were there before, unchanged meanwhile)
  const after = archiveSource(root, platform);
  if (after.key && (!source.key || sameKey(source.key, after.key))) keepArchive(root, after.key, archive);
  return { archive, reused: false };
}
