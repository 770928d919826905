import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { shellVersion } from '@campus/contracts';
import { repoRoot } from '../../src/config.ts';
// @ts-expect-error: the release scripts are plain JavaScript without declarations
import { buildVersion } from '../../../../scripts/release/build-version.mjs';
// @ts-expect-error: the release scripts are plain JavaScript without declarations
import { buildVersionPlugin } from '../../../../scripts/release/bundle.mjs';
// @ts-expect-error: the release scripts are plain JavaScript without declarations
import { releaseChangelog } from '../../../../scripts/release.mjs';
import { tempDir } from '../support/helpers.ts';

const versionOf = buildVersion as (root: string) => string;

/** A tiny checkout: the version file and one commit at a fixed time. */
function checkout(dir: string, line: string): void {
  fs.mkdirSync(path.join(dir, 'packages/contracts/src'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'packages/contracts/src/shell-constants.ts'), `export const shellVersion = '${line}';\n`);
  fs.writeFileSync(path.join(dir, 'README.md'), 'one\n');
  const git = (...args: string[]) => execFileSync('git', args, {
    cwd: dir,
    stdio: 'pipe',
    // 06:30 on 2 December in Shanghai is still 1 December in UTC: the version takes UTC's date
    env: { ...process.env, GIT_AUTHOR_DATE: '2026-12-02T06:30:00+08:00', GIT_COMMITTER_DATE: '2026-12-02T06:30:00+08:00', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' },
  });
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '-m', 'first');
}

const head = (dir: string) => execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();

describe('every build its own version (issue 48 item 3)', () => {
  const work = tempDir('campus-build-version-');
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it('names the release line, the commit\'s UTC date and its hash; the same commit gives the same version', () => {
    const dir = path.join(work, 'clean');
    checkout(dir, '3.6.0.26112601');
    const version = versionOf(dir);
    expect(version).toBe(`3.6.0.26112601+20261201.${head(dir).slice(0, 7)}`);
    expect(versionOf(dir)).toBe(version);
  });

  it('two commits of one release line have two versions', () => {
    const dir = path.join(work, 'two');
    checkout(dir, '3.6.0.26112601');
    const first = versionOf(dir);
    fs.writeFileSync(path.join(dir, 'README.md'), 'two\n');
    execFileSync('git', ['commit', '-q', '-am', 'second'], { cwd: dir, env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' } });
    const second = versionOf(dir);
    expect(second).not.toBe(first);
    expect(second.startsWith('3.6.0.26112601+')).toBe(true);
    expect(second.endsWith(head(dir).slice(0, 7))).toBe(true);
  });

  it('a tree with changes not committed, or a new file, says .dirty', () => {
    const dir = path.join(work, 'dirty');
    checkout(dir, '3.6.0.26112601');
    const clean = versionOf(dir);
    fs.writeFileSync(path.join(dir, 'README.md'), 'changed\n');
    expect(versionOf(dir)).toBe(`${clean}.dirty`);
    execFileSync('git', ['checkout', '-q', 'README.md'], { cwd: dir });
    fs.writeFileSync(path.join(dir, 'NEW.md'), 'new\n');
    expect(versionOf(dir)).toBe(`${clean}.dirty`);
  });

  it('a tree outside git, even inside another checkout, says +nogit', () => {
    const plain = path.join(work, 'plain');
    fs.mkdirSync(path.join(plain, 'packages/contracts/src'), { recursive: true });
    fs.writeFileSync(path.join(plain, 'packages/contracts/src/shell-constants.ts'), "export const shellVersion = '3.6.0.26112601';\n");
    expect(versionOf(plain)).toBe('3.6.0.26112601+nogit');
    const outer = path.join(work, 'outer');
    checkout(outer, '9.9.9.99999999');
    const inner = path.join(outer, 'unpacked');
    fs.cpSync(plain, inner, { recursive: true });
    expect(versionOf(inner)).toBe('3.6.0.26112601+nogit');
  });

  it('the server\'s bundle says the build\'s version wherever it says shellVersion', async () => {
    const entry = path.join(work, 'entry.ts');
    fs.writeFileSync(entry, `import { shellVersion } from ${JSON.stringify(path.join(repoRoot, 'packages/contracts/src/shell-constants.ts'))};\nconsole.log(shellVersion);\n`);
    const plugin = (buildVersionPlugin as (version: string) => unknown)('3.6.0.26112601+20261201.abcdef0');
    const result = await build({ entryPoints: [entry], bundle: true, write: false, format: 'esm', platform: 'node', plugins: [plugin as never], logLevel: 'silent' });
    const code = result.outputFiles[0]!.text;
    expect(code).toContain('"3.6.0.26112601+20261201.abcdef0"');
    expect(code).not.toContain(`'${shellVersion}'`);
    expect(code).not.toContain(`"${shellVersion}"`);
  });

  it('the archive\'s CHANGELOG heads what is not released yet with the build\'s version, released sections kept', () => {
    const text = '# Changelog\n\n## Unreleased\n\n- a change\n\n## 3.6.0.26112601\n\n- released\n';
    expect((releaseChangelog as (text: string, version: string) => string)(text, '3.6.0.26112601+20261201.abcdef0'))
      .toBe('# Changelog\n\n## 3.6.0.26112601+20261201.abcdef0\n\n- a change\n\n## 3.6.0.26112601\n\n- released\n');
  });
});
