import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/lib/hash.ts';

// CHANGELOG.md in the Keep a Changelog form (issue 50 item 8): Unreleased first, sorted by kind of change, every line
// naming its issue; a released section is never edited once the release is made. A release adds its section's
// fingerprint below (the test prints it when it is missing).
const root = path.join(import.meta.dirname, '..', '..', '..', '..');
const changelog = fs.readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8');
/** The last commit before subjects were held to 72 characters (older ones are history, not rewritten). */
const lastLongSubject = '903352c';

/** The fingerprint of each released section as it was released: its text from the heading to the next one. */
const releasedFingerprints: Record<string, string> = {
  '3.6.0.26112601': 'c81ae3b72237d5470528593d9809e1edcd83b10a37393161f0a26db9bf020fb8',
  '3.5.7.24112701': 'ed1e73bca9e685149937fe71fd5f8d06f6af0bf438d8988e51e22546edd31b92',
};
/** Releases made before the form, dated by their git tags only. */
const undatedReleases = new Set(['3.6.0.26112601', '3.5.7.24112701']);
const kinds = ['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security'];

interface Section {
  heading: string;
  text: string;
}

function sections(markdown: string, level: '## ' | '### '): Section[] {
  const found: Section[] = [];
  const lines = markdown.split('\n');
  let current: { heading: string; lines: string[] } | null = null;
  for (const line of lines) {
    if (line.startsWith(level)) {
      if (current) found.push({ heading: current.heading, text: current.lines.join('\n').trimEnd() });
      current = { heading: line.slice(level.length), lines: [line] };
    } else current?.lines.push(line);
  }
  if (current) found.push({ heading: current.heading, text: current.lines.join('\n').trimEnd() });
  return found;
}

const releaseHeading = /^(\d+\.\d+\.\d+\.\d{8})(?: - (\d{4}-\d{2}-\d{2}))?$/;
const all = sections(changelog, '## ');
const released = all.slice(1);

describe('the changelog', () => {
  it('starts with Unreleased, its changes sorted under the kinds of Keep a Changelog, in their order, once each', () => {
    expect(all[0]?.heading).toBe('Unreleased');
    const headings = sections(all[0]!.text, '### ').map((section) => section.heading);
    expect(headings.length).toBeGreaterThan(0);
    expect(headings.every((heading) => kinds.includes(heading)), headings.join(', ')).toBe(true);
    expect(headings).toEqual(kinds.filter((kind) => headings.includes(kind)));
  });

  it('every unreleased change is a list item that names its issue', () => {
    for (const kind of sections(all[0]!.text, '### ')) {
      const body = kind.text.split('\n').slice(1).join('\n').trim();
      expect(body, kind.heading).not.toBe('');
      const items = body.split(/\n(?=- )/);
      for (const item of items) expect(item, `${kind.heading}: ${item.slice(0, 80)}`).toMatch(/^- Issues? \d+/);
    }
  });

  it('each release is a version, newest first, dated unless it came before the form', () => {
    expect(released.length).toBeGreaterThan(0);
    const versions = released.map((section) => {
      const match = releaseHeading.exec(section.heading);
      expect(match, section.heading).not.toBeNull();
      if (!undatedReleases.has(match![1]!)) expect(match![2], `${section.heading} has no date`).toBeDefined();
      return match![1]!;
    });
    expect(new Set(versions).size).toBe(versions.length);
    const byNumber = [...versions].sort((a, b) => b.localeCompare(a, 'en', { numeric: true }));
    expect(versions).toEqual(byNumber);
  });

  it('no released section changed after its release', () => {
    const now = Object.fromEntries(released.map((section) => [releaseHeading.exec(section.heading)![1]!, sha256Hex(section.text)]));
    expect(now, 'a new release adds its fingerprint to releasedFingerprints').toEqual(releasedFingerprints);
  });
});

describe('the history', () => {
  it('says what changed in commit subjects of at most 72 characters, since the rule', () => {
    // needs the git history of the checkout (CI's clone has it)
    const subjects = execFileSync('git', ['log', '--format=%s', `${lastLongSubject}..HEAD`], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(subjects.length).toBeGreaterThan(0);
    expect(subjects.filter((subject) => subject.length > 72)).toEqual([]);
  });
});
