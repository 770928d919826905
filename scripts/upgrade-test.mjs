// `npm run upgrade:test [-- --source]`: the previous release (the commit before this version,
// scripts/release/previous-source.mjs), and an installation one schema behind when the previous release already has
// this version's schema (so that a migration runs on real data), each make a gate installation's data; this version's release archive (built here
// with scripts/release.mjs, or the release test's of the same clean commit, and unpacked in a temporary root) upgrades it and must keep every row and sign-in; then the
// documented rollback (campus restore of the backup taken before the upgrade, the old release) must give the old back
// (e2e/upgrade/run-upgrade.ts). On SQLite, and on PostgreSQL too when DATABASE_URL names one (CI's): each run gets a
// database of its own beside it. With --source the new side runs from this checkout instead of an archive.
// Exit code 0 when all of it holds.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { releaseArchive } from './release/reused-archive.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const finder = path.join(root, 'scripts', 'release', 'previous-source.mjs');
const fromSource = process.argv.includes('--source');

/**
 * This checkout's release archive, unpacked under `work`; returns the release's folder. The archive is the one the
 * release test built from the same clean commit when there is one (scripts/release/reused-archive.mjs), built here
 * otherwise.
 */
function unpackedRelease(work) {
  const { archive } = releaseArchive(root, { outDir: path.join(work, 'out'), who: 'upgrade-test' });
  const unpacked = path.join(work, 'root', 'opt');
  mkdirSync(unpacked, { recursive: true });
  execFileSync('tar', ['-xzf', archive, '-C', unpacked]);
  return path.join(unpacked, readdirSync(unpacked)[0]);
}

/** The old installations to upgrade: the previous release, and (when that has HEAD's schema) one schema behind. */
function previousSources() {
  const found = [];
  for (const args of [[], ['--schema']]) {
    // the second old commit often has the first one's lockfile: its node_modules then come hard-linked, not installed
    const donor = found.length > 0 ? ['--node-modules-from', found[0].folder] : [];
    const previous = JSON.parse(execFileSync(process.execPath, [finder, ...args, ...donor], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));
    if (found.some((other) => other.commit === previous.commit)) execFileSync(process.execPath, [finder, '--remove', previous.folder], { cwd: root, stdio: 'inherit' });
    else found.push(previous);
  }
  return found;
}

/** A new, empty PostgreSQL database beside the one DATABASE_URL names (CI's), for one installation; its URL. */
function freshPostgres(adminUrl, name) {
  execFileSync('psql', ['-q', '-v', 'ON_ERROR_STOP=1', adminUrl, '-c', `CREATE DATABASE ${name}`]);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

function dropPostgres(adminUrl, name) {
  spawnSync('psql', ['-q', adminUrl, '-c', `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`], { stdio: 'inherit' });
}

// SQLite always; PostgreSQL too when DATABASE_URL names one (as in CI), each installation on a database of its own
const adminUrl = process.env.DATABASE_URL || '';
const databases = adminUrl ? ['SQLite', 'PostgreSQL'] : ['SQLite'];
const work = mkdtempSync(path.join(os.tmpdir(), 'campus-upgrade-release-'));
const results = [];
const olds = previousSources();
const runs = olds.length * databases.length;
try {
  const target = fromSource ? [] : ['--release', unpackedRelease(work)];
  for (const previous of olds) {
    for (const database of databases) {
      console.log(`\nupgrade test on ${database}: ${previous.version} (${previous.commit.slice(0, 7)}) → ${previous.headVersion} ${fromSource ? 'from this checkout' : 'from its release archive'}`);
      const name = `campus_upgrade_${process.pid}_${results.length + 1}`;
      const onPostgres = database === 'PostgreSQL' ? ['--database-url', freshPostgres(adminUrl, name)] : [];
      try {
        const status = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'e2e', 'upgrade', 'run-upgrade.ts'), '--from', previous.folder, ...target, ...onPostgres], { cwd: root, stdio: 'inherit', env: { ...process.env, DATABASE_URL: '' } }).status;
        results.push(`${status === 0 ? 'passed' : 'FAILED'}: from ${previous.version} on ${database}`);
      } finally {
        if (onPostgres.length > 0) dropPostgres(adminUrl, name);
      }
    }
  }
} finally {
  for (const previous of olds) execFileSync(process.execPath, [finder, '--remove', previous.folder], { cwd: root, stdio: 'inherit' });
  rmSync(work, { recursive: true, force: true });
}
console.log(`\nupgrade test:\n  ${results.join('\n  ')}`);
process.exit(results.length === runs && results.every((line) => line.startsWith('passed')) ? 0 : 1);
