import { describe, expect, it } from 'vitest';
import { chunksLoadedLater, type ChunkShape } from './compile-hints.ts';

const chunk = (fileName: string, imports: string[] = [], isEntry = false): ChunkShape => ({ type: 'chunk', fileName, imports, isEntry });

describe('the chunks given the compile hint', () => {
  it('are those outside every entry’s static imports', () => {
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
    expect(chunksLoadedLater(bundle).sort()).toEqual(['antd.js', 'layout.js', 'login-page.js']);
  });

  it('leave out what a second entry imports', () => {
    const bundle = Object.fromEntries([chunk('a.js', ['shared.js'], true), chunk('b.js', ['only-b.js'], true), chunk('shared.js'), chunk('only-b.js'), chunk('late.js')].map((output) => [output.fileName, output]));
    expect(chunksLoadedLater(bundle)).toEqual(['late.js']);
  });
});
