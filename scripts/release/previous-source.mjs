#!/usr/bin/env node
// Finds "the previous release" in git history and checks it out beside this one, ready to run.
//
//   node scripts/release/previous-source.mjs            -> prints {"folder","version","commit","nodeModules","seconds"}
//   node scripts/release/previous-source.mjs --schema   -> the same for the newest commit one schema behind HEAD
//   node scripts/release/previous-source.mjs --remove <folder>
//   add --node-modules-from <folder> (another such worktree) to hard-link its node_modules when it installs alike
//
// The previous release is the newest commit (first-parent walk from HEAD) whose shellVersion in
// packages/contracts/src/shell-constants.ts differs from HEAD's. Its worktree gets node_modules hard-linked from this
// checkout when every package in its package-lock.json is here at the same version, or from the worktree named by
// --node-modules-from when both have the same package-lock.json and install settings, or from the cache of an earlier
// run's install (CAMPUS_CACHE_DIR, /var/cache/campus-shell/previous-node-modules); otherwise `npm ci` runs there
// (about a minute, and more on a busy CI machine: the upgrade test prepares two old commits, often of one lockfile).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const VERSION_FILE = 'packages/contracts/src/shell-constants.ts';
const MIGRATIONS_FOLDER = 'apps/server/src/db/migrations';
const MIGRATIONS_FILE = 'apps/server/src/db/migrations.ts';
const repoRoot = git(['rev-parse', '--show-toplevel'], process.cwd()).trim();

function git(args, cwd = repoRoot) {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function fail(message) {
  process.stderr.write(`previous-source: ${message}\n`);
  process.exit(1);
}

function versionAt(commit) {
  let text;
  try {
    text = git(['show', `${commit}:${VERSION_FILE}`]);
  } catch {
    return undefined; // the file did not exist yet
  }
  return /shellVersion\s*=\s*['"]([^'"]+)['"]/.exec(text)?.[1];
}

/**
 * The migrations a commit's server knows, oldest first: the files of MIGRATIONS_FOLDER (one a migration, named as it),
 * or in a commit from before that folder, the names in MIGRATIONS_FILE.
 */
function migrationsAt(commit) {
  let files = [];
  try {
    files = git(['ls-tree', '--name-only', `${commit}:${MIGRATIONS_FOLDER}`]).split('\n');
  } catch {
    // no such folder yet
  }
  const named = files.map((file) => /^(\d{4}_[a-z0-9_]+)\.ts$/.exec(file)?.[1]).filter(Boolean);
  if (named.length > 0) return named.sort();
  let text;
  try {
    text = git(['show', `${commit}:${MIGRATIONS_FILE}`]);
  } catch {
    return [];
  }
  return [...text.matchAll(/'(\d{4}_[a-z0-9_]+)'\s*:/g)].map((match) => match[1]).sort();
}

/**
 * The newest commit (first-parent walk from HEAD) where `read` gives something else than at HEAD. Only commits that
 * touched `file` can change it: find the one that brought HEAD's value; the answer is its first parent.
 */
function newestBefore(file, read, what) {
  const headValue = read('HEAD');
  if (!headValue) fail(`HEAD has no ${what} in ${file}`);
  const commits = git(['log', '--first-parent', '--format=%H', 'HEAD', '--', file]).split('\n').filter(Boolean);
  let introducing;
  for (const commit of commits) {
    if (read(commit) !== headValue) break;
    introducing = commit;
  }
  if (introducing) {
    let parent = '';
    try { parent = git(['rev-parse', '--verify', '--quiet', `${introducing}^1`]).trim(); } catch { /* root commit */ }
    const value = parent && read(parent);
    if (value && value !== headValue) return parent;
  }
  fail(`no commit with a ${what} other than HEAD's ${headValue}`);
}

/** The previous release: the newest commit on another shellVersion than HEAD's. */
export function findPreviousRelease() {
  const commit = newestBefore(VERSION_FILE, versionAt, 'shellVersion');
  return { commit, version: versionAt(commit), headVersion: versionAt('HEAD') };
}

/**
 * An installation one schema behind: the newest commit (first-parent walk from HEAD) whose migrations are a shorter
 * start of HEAD's. A commit whose list is not such a start (a migration renumbered later, on the way to HEAD) made a
 * database no release ever had, and is passed over.
 */
export function findPreviousSchema() {
  const head = migrationsAt('HEAD');
  for (const commit of git(['rev-list', '--first-parent', 'HEAD']).split('\n').filter(Boolean)) {
    const known = migrationsAt(commit);
    if (known.length > 0 && known.length < head.length && known.every((name, index) => head[index] === name)) {
      return { commit, version: `${versionAt(commit)}, schema ${known.at(-1)}`, headVersion: `${versionAt('HEAD')}, schema ${head.at(-1)}` };
    }
  }
  fail(`no commit whose migrations are a start of HEAD's (${head.at(-1)})`);
}

/** name@version of every installed package a lockfile lists (links and the root excluded). */
function lockedPackages(lockText) {
  const lock = JSON.parse(lockText);
  const result = new Map();
  for (const [path, entry] of Object.entries(lock.packages ?? {})) {
    if (!path.includes('node_modules/') || entry.link) continue;
    result.set(path, entry.version);
  }
  return result;
}

function lockDifferences(oldLockText, newLockText) {
  const current = lockedPackages(newLockText);
  const differences = [];
  for (const [path, version] of lockedPackages(oldLockText)) {
    if (current.get(path) !== version) differences.push(`${path}@${version} (here: ${current.get(path) ?? 'absent'})`);
  }
  return differences;
}

/** node_modules of `from` (a checkout of the same workspaces) hard-linked into `folder`, the workspaces' own too. */
function hardLinkNodeModules(from, folder) {
  // Workspace packages are symlinks relative to the root, so the copied links point into the new worktree.
  execFileSync('cp', ['-al', join(from, 'node_modules'), join(folder, 'node_modules')]);
  for (const workspace of workspaceFolders(folder)) {
    const source = join(from, workspace, 'node_modules');
    if (existsSync(source) && existsSync(join(folder, workspace))) {
      rmSync(join(folder, workspace, 'node_modules'), { recursive: true, force: true });
      execFileSync('cp', ['-al', source, join(folder, workspace, 'node_modules')]);
    }
  }
}

/** What `npm ci` installs from: the lockfile, and the package.json settings that steer it (workspaces, install scripts). */
function installInputs(folder) {
  const pkg = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
  return JSON.stringify([readFileSync(join(folder, 'package-lock.json'), 'utf8'), pkg.workspaces ?? null, pkg.allowScripts ?? null]);
}

function giveNodeModules(folder, donor) {
  const started = Date.now();
  const oldLock = readFileSync(join(folder, 'package-lock.json'), 'utf8');
  const newLock = readFileSync(join(repoRoot, 'package-lock.json'), 'utf8');
  const differences = lockDifferences(oldLock, newLock);
  const seconds = () => Math.round((Date.now() - started) / 100) / 10;
  if (differences.length === 0 && existsSync(join(repoRoot, 'node_modules'))) {
    hardLinkNodeModules(repoRoot, folder);
    return { nodeModules: 'hard-linked', seconds: seconds() };
  }
  if (donor && existsSync(join(donor, 'node_modules')) && installInputs(donor) === installInputs(folder)) {
    hardLinkNodeModules(donor, folder);
    process.stderr.write(`previous-source: node_modules hard-linked from ${donor} (the same lockfile and install settings)\n`);
    return { nodeModules: 'hard-linked', seconds: seconds() };
  }
  const cached = cachedModulesFolder(folder);
  if (existsSync(join(cached, '.complete'))) {
    hardLinkNodeModules(cached, folder);
    process.stderr.write(`previous-source: node_modules hard-linked from the cache ${cached}\n`);
    return { nodeModules: 'hard-linked', seconds: seconds() };
  }
  process.stderr.write(`previous-source: ${differences.length} package(s) differ, running npm ci (e.g. ${differences.slice(0, 3).join(', ')})\n`);
  execFileSync('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: folder, stdio: ['ignore', 2, 2] });
  const took = seconds();
  process.stderr.write(`previous-source: npm ci took ${took} s\n`);
  keepInCache(folder, cached);
  return { nodeModules: 'npm ci', seconds: took };
}

/**
 * Where the node_modules an earlier release's lockfile installs are kept between runs, outside any clone (like the
 * Wine root): the upgrade test installs two earlier releases, about two minutes each, on every CI run otherwise.
 * Named by what npm ci installs from, so a folder is only ever reused for the same install.
 */
function cachedModulesFolder(folder) {
  const cacheRoot = process.env.CAMPUS_CACHE_DIR ?? '/var/cache/campus-shell';
  return join(cacheRoot, 'previous-node-modules', createHash('sha256').update(installInputs(folder)).digest('hex').slice(0, 24));
}

function keepInCache(folder, cached) {
  const building = `${cached}.${process.pid}`;
  try {
    rmSync(building, { recursive: true, force: true });
    mkdirSync(building, { recursive: true });
    for (const part of ['.', ...workspaceFolders(folder)]) {
      const source = join(folder, part, 'node_modules');
      if (!existsSync(source)) continue;
      mkdirSync(dirname(join(building, part, 'node_modules')), { recursive: true });
      // hard links where the cache is on the same file system, a copy where it is not
      try {
        execFileSync('cp', ['-al', source, join(building, part, 'node_modules')]);
      } catch {
        rmSync(join(building, part, 'node_modules'), { recursive: true, force: true });
        execFileSync('cp', ['-a', source, join(building, part, 'node_modules')]);
      }
    }
    writeFileSync(join(building, '.complete'), `${new Date().toISOString()}\n`);
    rmSync(cached, { recursive: true, force: true });
    renameSync(building, cached);
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    process.stderr.write(`previous-source: node_modules not kept in the cache (${error.message}); the next run installs them again\n`);
  }
}

function workspaceFolders(folder) {
  const pkg = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
  return Array.isArray(pkg.workspaces) ? pkg.workspaces : [];
}

function prepare(find, donor) {
  const { commit, version, headVersion } = find();
  const folder = mkdtempSync(join(tmpdir(), `campus-previous-${version.replace(/[^\w.-]+/g, '-')}-`));
  rmSync(folder, { recursive: true }); // git worktree add wants to create it
  git(['worktree', 'add', '--detach', folder, commit]);
  try {
    const installed = giveNodeModules(folder, donor);
    process.stdout.write(`${JSON.stringify({ folder, version, commit, headVersion, ...installed })}\n`);
  } catch (error) {
    remove(folder);
    fail(`could not give ${folder} its node_modules: ${error.message}`);
  }
}

function remove(folder) {
  const absolute = resolve(folder);
  const worktrees = git(['worktree', 'list', '--porcelain']).split('\n')
    .filter((line) => line.startsWith('worktree ')).map((line) => line.slice('worktree '.length));
  if (!worktrees.includes(absolute)) fail(`${absolute} is not a worktree of ${repoRoot}`);
  if (absolute === repoRoot) fail('refusing to remove the current checkout');
  git(['worktree', 'remove', '--force', absolute]);
  rmSync(absolute, { recursive: true, force: true });
  git(['worktree', 'prune']);
}

const args = process.argv.slice(2);
const usage = 'usage: previous-source.mjs [--schema] [--node-modules-from <worktree>] | --remove <folder>';
if (args[0] === '--remove') {
  if (!args[1] || args.length > 2) fail(usage);
  remove(args[1]);
} else {
  let schema = false;
  let donor;
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === '--schema' && !schema) schema = true;
    else if (args[i] === '--node-modules-from' && donor === undefined && args[i + 1]) {
      donor = resolve(args[i + 1]);
      i += 1;
      if (!existsSync(join(donor, 'package-lock.json'))) fail(`--node-modules-from ${donor}: no package-lock.json there (give a worktree this script prepared)`);
    } else fail(`unknown arguments: ${args.join(' ')} (${usage})`);
  }
  prepare(schema ? findPreviousSchema : findPreviousRelease, donor);
}
