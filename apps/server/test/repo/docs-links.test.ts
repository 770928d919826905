import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The README and docs/ say each fact once and link to it (issue 50): these checks keep the links whole and find a
// second configuration table or a second statement of the server's layers.

const root = path.resolve(import.meta.dirname, '../../../..');

/** The pages a reader follows from the README: the README, docs/*.md and the configuration table. */
const pages = ['README.md', ...fs.readdirSync(path.join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`), 'apps/server/CONFIG.md'];

/** Every markdown document of the repository's own (not node_modules): where a second statement could appear. */
function allDocuments(): string[] {
  const found: string[] = [];
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(path.join(root, folder), { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules' || entry.name === 'dist' || entry.name === 'reports') continue;
      const relative = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory()) walk(relative);
      else if (entry.name.endsWith('.md') && relative !== 'CHANGELOG.md') found.push(relative);
    }
  };
  walk('');
  return found.sort();
}


const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** The text without fenced code blocks. */
function withoutCodeBlocks(text: string): string {
  return text.replace(/^([ \t]*)(```|~~~)[\s\S]*?^\1\2[^\n]*$/gm, '');
}

/** The text without fenced code blocks and inline code spans (links in them are examples, not links). */
function prose(text: string): string {
  return withoutCodeBlocks(text).replace(/`[^`\n]*`/g, '');
}

/** The text of a heading as GitHub renders it: no code marks, link targets or emphasis. */
function headingText(line: string): string {
  return line
    .replace(/^#+\s*/, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*_]/g, (mark) => (mark === '_' ? '_' : ''))
    .trim();
}

/** GitHub's anchor of a heading text. */
function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The headings of a markdown file (outside code blocks), and their anchors with GitHub's -1, -2 for repeats. */
function headingsOf(file: string): { texts: string[]; anchors: Set<string> } {
  const texts = withoutCodeBlocks(read(file))
    .split('\n')
    .filter((line) => /^#{1,6}\s/.test(line))
    .map(headingText);
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const text of texts) {
    const base = slug(text);
    const count = seen.get(base) ?? 0;
    anchors.add(count === 0 ? base : `${base}-${count}`);
    seen.set(base, count + 1);
  }
  return { texts, anchors };
}

/** The relative link targets of a page: [text](target), images too. */
function relativeLinks(file: string): string[] {
  return [...prose(read(file)).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** What is wrong with one link of `file`, or null. */
function problemOf(file: string, target: string): string | null {
  const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
  const resolved = pathPart === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURIComponent(pathPart)));
  if (resolved.startsWith('..')) return `${target}: outside the repository`;
  if (!fs.existsSync(path.join(root, resolved))) return `${target}: no file ${resolved}`;
  if (anchor === undefined || anchor === '') return null;
  if (!resolved.endsWith('.md')) return `${target}: an anchor into a file that is not markdown`;
  return headingsOf(resolved).anchors.has(anchor) ? null : `${target}: no heading "#${anchor}" in ${resolved}`;
}

/** Sections named in words: README "Sign-in rules", `docs/operating.md` "Backups". */
function quotedSections(file: string): { target: string; section: string }[] {
  const pattern = /(?:`((?:docs\/[\w-]+|apps\/server\/CONFIG)\.md)`|\b((?:docs\/[\w-]+|apps\/server\/CONFIG)\.md)|(?<![\w/.])(README)(?![\w.]))\s*,?\s*"([^"\n]+)"/g;
  return [...read(file).matchAll(pattern)].map((match) => ({ target: match[1] ?? match[2] ?? 'README.md', section: match[4]! }));
}

/** Markdown tables of a text: their first column's cells (below the header), per table. */
function tablesOf(text: string): string[][] {
  const tables: string[][] = [];
  let current: string[] | null = null;
  for (const line of withoutCodeBlocks(text).split('\n')) {
    if (/^\s*\|/.test(line)) {
      const first = line.trim().replace(/^\|/, '').split('|')[0]!.trim();
      if (/^:?-{3,}:?$/.test(first)) continue;
      if (current) current.push(first);
      else tables.push((current = []));
    } else current = null;
  }
  return tables;
}

/** The environment variables a table's first column lists (`NAME`, `NAME_A`, `NAME_B`). */
function variablesOf(column: string[]): string[] {
  return column.flatMap((cell) => [...cell.matchAll(/`([A-Z][A-Z0-9]+(?:_[A-Z0-9]+)*)`/g)].map((match) => match[1]!));
}

describe('the README and docs/: links', () => {
  it('reads the pages it checks', () => {
    expect(pages).toContain('docs/architecture.md');
    expect(pages.length).toBeGreaterThan(10);
  });

  for (const file of pages) {
    it(`${file}: every relative link names a file (and a heading) that exists`, () => {
      const problems = relativeLinks(file).map((target) => problemOf(file, target)).filter((problem) => problem !== null);
      expect(problems).toEqual([]);
    });

    it(`${file}: every section named in words ("README "…"", "docs/x.md "…"") is a heading of that file`, () => {
      const problems = quotedSections(file)
        .filter(({ target, section }) => {
          if (!fs.existsSync(path.join(root, target))) return true;
          // a heading, or a paragraph's bold lead-in (**Trusted issuers** (issue 46 item 1). …)
          const leads = [...read(target).matchAll(/^\*\*([^*\n]+)\*\*/gm)].map((match) => match[1]!);
          return ![...headingsOf(target).texts, ...leads].some((text) => text.toLowerCase().startsWith(section.toLowerCase()));
        })
        .map(({ target, section }) => `${target} "${section}"`);
      expect(problems).toEqual([]);
    });
  }

  it('the link check itself finds a missing file, a missing anchor and a section that is not there', () => {
    expect(problemOf('docs/architecture.md', '../apps/server/src/no-such-file.ts')).toMatch(/no file/);
    expect(problemOf('docs/architecture.md', 'operating.md#no-such-heading')).toMatch(/no heading/);
    expect(problemOf('docs/architecture.md', 'operating.md#backups')).toBeNull();
    expect(problemOf('README.md', 'docs/development.md#what-npm-test-needs')).toBeNull();
    expect(problemOf('README.md', 'docs/sso.md')).toBeNull();
    expect(slug(headingText("## The server's layers"))).toBe('the-servers-layers');
    expect(slug(headingText('## Card states (server; spec §4 "Card states")'))).toBe('card-states-server-spec-4-card-states');
    expect(quotedSections('docs/operating.md').length).toBeGreaterThan(0);
  });
});

describe('the README and docs/: each fact once', () => {
  it('one table of the server settings (apps/server/CONFIG.md) and one of the card issuer (docs/operator-pc.md)', () => {
    const places = allDocuments().flatMap((file) =>
      tablesOf(read(file))
        .filter((column) => variablesOf(column).length >= 3)
        .map((column) => ({ file, variables: variablesOf(column) })),
    );
    expect(places.map(({ file }) => file)).toEqual(['apps/server/CONFIG.md', 'docs/operator-pc.md']);
    expect(places[0]!.variables).toEqual(expect.arrayContaining(['DATABASE_URL', 'DATA_DIR', 'PORT', 'CARD_ISSUER_URL']));
    expect(places[1]!.variables).toEqual(expect.arrayContaining(['CARD_ISSUER_ALLOWED_ORIGINS', 'CARD_READER', 'CARD_ISSUER_PORT']));
    // a setting is described in one row of one table
    const all = places.flatMap(({ variables }) => variables);
    expect(all.filter((name, index) => all.indexOf(name) !== index)).toEqual([]);
  });

  it('the server layers are stated once, in docs/architecture.md', () => {
    // the bottom floor, and the rule that imports point down
    const floors = /`lib\/`,\s*`db\/`,?\s*(?:and\s*)?`http\/`/g;
    const pointDown = /\bimports?\b[^.]{0,20}\bpoints?\s+down\b/gi;
    const statements = allDocuments().flatMap((file) => {
      const text = read(file);
      return [...(text.match(floors) ?? []), ...(text.match(pointDown) ?? [])].map(() => file);
    });
    expect(statements).toEqual(['docs/architecture.md', 'docs/architecture.md']);
  });

  it('the checks find a second table and a second statement', () => {
    const table = '| variable | default |\n| --- | --- |\n| `DATABASE_URL` | unset |\n| `DATA_DIR` | x |\n| `LOG_LEVEL` | info |\n';
    expect(tablesOf(`Settings:\n\n${table}\nmore text\n\n${table}`).map(variablesOf)).toEqual([
      ['DATABASE_URL', 'DATA_DIR', 'LOG_LEVEL'],
      ['DATABASE_URL', 'DATA_DIR', 'LOG_LEVEL'],
    ]);
    expect('`lib/`, `db/`, `http/` and `config.ts`').toMatch(/`lib\/`,\s*`db\/`,?\s*(?:and\s*)?`http\/`/);
  });
});
