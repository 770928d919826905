import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunksGivenTheHint, compileHint, compileHints, type ChunkShape } from './compile-hints.ts';

const chunk = (fileName: string, imports: string[] = [], isEntry = false): ChunkShape => ({ type: 'chunk', fileName, imports, isEntry });

describe('the chunks given the compile hint', () => {
  it('are the entry and those outside every entry’s static imports', () => {
    const bundle = Object.fromEntries(
      [
        chunk('index.js', ['react.js', 'first-load.js'], true),
        chunk('first-load.js', ['contracts.js']),
        chunk('contracts.js'),
        chunk('react.js'),
        chunk('login-page.js', ['first-load.js']),
        chunk('layout.js', ['antd.js', 'react.js']),
        chunk('antd.js'),
        { type: 'asset' as const, fileName: 'index.css' },
      ].map((output) => [output.fileName, output]),
    );
    expect(chunksGivenTheHint(bundle).sort()).toEqual(['antd.js', 'index.js', 'layout.js', 'login-page.js']);
  });

  it('leave out what a second entry imports, but not that entry', () => {
    const bundle = Object.fromEntries([chunk('a.js', ['shared.js'], true), chunk('b.js', ['only-b.js'], true), chunk('shared.js'), chunk('only-b.js'), chunk('late.js')].map((output) => [output.fileName, output]));
    expect(chunksGivenTheHint(bundle).sort()).toEqual(['a.js', 'b.js', 'late.js']);
  });
});

describe('the written files', () => {
  it('open with the hint when loaded later or an entry, once however often the build writes them, and the entry’s imports do not', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'compile-hints-'));
    const bundle = Object.fromEntries([chunk('index.js', ['shared.js'], true), chunk('shared.js'), chunk('layout.js', ['shared.js'])].map((output) => [output.fileName, output]));
    for (const fileName of Object.keys(bundle)) writeFileSync(path.join(dir, fileName), `const __vite__mapDeps = 1;\nexport const name = '${fileName}';\n`);
    const writeBundle = compileHints().writeBundle as (options: { dir: string }, bundle: Record<string, ChunkShape>) => Promise<void>;
    await writeBundle({ dir }, bundle);
    await writeBundle({ dir }, bundle);
    const read = (fileName: string) => readFileSync(path.join(dir, fileName), 'utf8');
    expect(read('layout.js')).toBe(`${compileHint}const __vite__mapDeps = 1;\nexport const name = 'layout.js';\n`);
    expect(read('index.js')).toBe(`${compileHint}const __vite__mapDeps = 1;\nexport const name = 'index.js';\n`);
    expect(read('shared.js').startsWith('const __vite__mapDeps')).toBe(true);
  });
});
