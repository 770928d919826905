import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/helpers.ts';
// @ts-expect-error: the release scripts are plain JavaScript without declarations
import { releaseArchive as releaseArchiveOf } from '../../../../scripts/release/reused-archive.mjs';

type Build = (root: string, platform: string, outDir: string) => void;
const releaseArchive = releaseArchiveOf as (root: string, options: { outDir: string; who: string; build: Build; log: (line: string) => void }) => { archive: string; reused: boolean };

const gitEnv = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };
const git = (dir: string, ...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe', env: gitEnv });

/** A tiny checkout with what release.mjs copies as built (ignored by git, as in the repository) and one commit. */
function checkout(dir: string): void {
  const files: Record<string, string> = {
    'packages/contracts/src/shell-constants.ts': "export const shellVersion = '3.6.0.26112601';\n",
    '.gitignore': 'node_modules/\ndist/\n/.cache/\n',
    'README.md': 'one\n',
    'apps/shell/dist/index.html': '<!doctype html>\n',
    'apps/subapp-qy/dist/index.html': '<!doctype html>\n',
    'dist/card-issuer/card-issuer-linux-x64.tar.gz': 'issuer linux',
    'dist/card-issuer/card-issuer-win-x64.zip': 'issuer windows',
    'dist/subapp-sdk/campus-subapp-sdk-1.1.0.tgz': 'sdk',
  };
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  git(dir, 'init', '-q');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'first');
}

describe('CI builds the release archive once (issue 48 item 20)', () => {
  const work = tempDir('campus-archive-reuse-');
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  /** A stand-in for scripts/release.mjs: an archive naming the commit and the shell it was made of, and its .sha256. */
  function tree(name: string) {
    const root = path.join(work, name);
    checkout(root);
    const builds: string[] = [];
    const lines: string[] = [];
    const build: Build = (from, platform, outDir) => {
      const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: from, encoding: 'utf8' }).trim();
      const archive = path.join(outDir, `campus-shell-x-${platform}.tar.gz`);
      const content = `${commit} ${fs.readFileSync(path.join(from, 'apps/shell/dist/index.html'), 'utf8')} ${builds.length}`;
      fs.writeFileSync(archive, content);
      fs.writeFileSync(`${archive}.sha256`, `${createHash('sha256').update(content).digest('hex')}  ${path.basename(archive)}\n`);
      builds.push(outDir);
    };
    let runs = 0;
    const archiveFor = (who: string) => {
      runs += 1;
      return releaseArchive(root, { outDir: path.join(work, `${name}-out-${runs}`), who, build, log: (line) => lines.push(line) });
    };
    return { root, builds, lines, archiveFor };
  }

  it('the second test of a clean commit takes the first one\'s archive and says so', () => {
    const t = tree('clean');
    const first = t.archiveFor('release-test');
    expect(first.reused).toBe(false);
    expect(t.lines.at(-1)).toMatch(/^release-test: building the linux-x64 release archive \(no archive to reuse: none built before\)$/);
    const second = t.archiveFor('upgrade-test');
    expect(second.reused).toBe(true);
    expect(t.builds).toHaveLength(1);
    expect(t.lines.at(-1)).toMatch(/^upgrade-test: reused the release archive campus-shell-x-linux-x64\.tar\.gz, built before from the same commit [0-9a-f]{7} /);
    expect(second.archive).not.toBe(first.archive);
    expect(fs.readFileSync(second.archive)).toEqual(fs.readFileSync(first.archive));
    expect(fs.readFileSync(`${second.archive}.sha256`)).toEqual(fs.readFileSync(`${first.archive}.sha256`));
  });

  it('a tree with changes not committed, or a file git does not track, builds every time and keeps nothing', () => {
    const t = tree('dirty');
    fs.writeFileSync(path.join(t.root, 'README.md'), 'changed\n');
    expect(t.archiveFor('release-test').reused).toBe(false);
    expect(t.archiveFor('upgrade-test').reused).toBe(false);
    expect(t.lines.at(-1)).toContain('no archive to reuse: the tree has changes that are not committed');
    git(t.root, 'checkout', '-q', 'README.md');
    fs.writeFileSync(path.join(t.root, 'NEW.md'), 'new\n');
    expect(t.archiveFor('upgrade-test').reused).toBe(false);
    expect(t.builds).toHaveLength(3);
    expect(fs.existsSync(path.join(t.root, '.cache/release-archives'))).toBe(false);
  });

  it('another commit, or other built files, builds again', () => {
    const t = tree('changed');
    t.archiveFor('release-test');
    fs.writeFileSync(path.join(t.root, 'README.md'), 'two\n');
    git(t.root, 'commit', '-q', '-am', 'second');
    expect(t.archiveFor('upgrade-test').reused).toBe(false);
    expect(t.lines.at(-1)).toMatch(/no archive to reuse: the one kept was built from commit [0-9a-f]{7}\)$/);
    expect(t.archiveFor('upgrade-test').reused).toBe(true);
    fs.writeFileSync(path.join(t.root, 'apps/shell/dist/index.html'), '<!doctype html><title>rebuilt</title>\n');
    const rebuilt = t.archiveFor('upgrade-test');
    expect(rebuilt.reused).toBe(false);
    expect(t.lines.at(-1)).toContain('no archive to reuse: the one kept was built from other built files');
    expect(fs.readFileSync(rebuilt.archive, 'utf8')).toContain('rebuilt');
    expect(t.builds).toHaveLength(3);
  });

  it('a kept archive that no longer matches its .sha256 is not taken', () => {
    const t = tree('tampered');
    t.archiveFor('release-test');
    const kept = path.join(t.root, '.cache/release-archives/linux-x64/campus-shell-x-linux-x64.tar.gz');
    fs.appendFileSync(kept, 'x');
    expect(t.archiveFor('upgrade-test').reused).toBe(false);
    expect(t.lines.at(-1)).toContain('no archive to reuse: the one kept does not match its .sha256');
    expect(t.archiveFor('upgrade-test').reused).toBe(true);
  });
});
