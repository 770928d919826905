// The version of one build (issue 48 item 3): the release line (shellVersion in packages/contracts, which the card
// issuer and sub-apps compare against) and, after a "+", what this build was made from: the commit's date (UTC) and
// hash, e.g. 3.6.0.26112601+20261202.da68028. Two commits never share a version, so two builds never share a
// release folder; the same commit always gives the same version, so a build stays byte-identical when repeated.
// A tree with changes that are not committed says ".dirty" after the hash; a tree outside git says "+nogit".
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const versionFile = 'packages/contracts/src/shell-constants.ts';

/** The release line, by hand at each release: shellVersion in packages/contracts/src/shell-constants.ts. */
export function releaseLine(root) {
  const source = readFileSync(path.join(root, versionFile), 'utf8');
  const match = /export const shellVersion = '([^']+)'/.exec(source);
  if (!match) throw new Error(`shellVersion not found in ${versionFile}`);
  return match[1];
}

function git(root, args) {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, TZ: 'UTC' } }).trim();
}

/** What the tree at `root` was made from: {commit, date (YYYYMMDD, UTC), dirty}, or null outside git. */
export function sourceState(root) {
  let commit;
  try {
    // only the tree's own repository counts: a release folder unpacked inside another checkout is outside git
    if (path.resolve(git(root, ['rev-parse', '--show-toplevel'])) !== path.resolve(root)) return null;
    commit = git(root, ['rev-parse', '--verify', 'HEAD']);
  } catch {
    return null;
  }
  const date = git(root, ['log', '-1', '--format=%cd', '--date=format-local:%Y%m%d', commit]);
  // untracked files count too: docs/ and the like are copied into the archive whether committed or not
  const dirty = git(root, ['status', '--porcelain', '--untracked-files=normal']) !== '';
  return { commit, date, dirty };
}

/** The build's version from the release line and the source state (sourceState's answer). */
export function formatBuildVersion(line, state) {
  if (!state) return `${line}+nogit`;
  return `${line}+${state.date}.${state.commit.slice(0, 7)}${state.dirty ? '.dirty' : ''}`;
}

/** The version of a build of the tree at `root`: what the archive, `campus version` and About System show. */
export function buildVersion(root) {
  return formatBuildVersion(releaseLine(root), sourceState(root));
}
