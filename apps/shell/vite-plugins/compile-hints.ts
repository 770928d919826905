import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Plugin } from 'vite';

/** V8's explicit compile hint (Chrome 136 and later; a plain comment elsewhere): it must open the file. */
export const compileHint = '//# allFunctionsCalledOnLoad\n';

/** What the bundle hooks see of an output: its file, whether it is an entry, and the files it imports statically. */
export interface ChunkShape {
  type: 'chunk' | 'asset';
  fileName: string;
  isEntry?: boolean;
  imports?: string[];
}

/**
 * The chunks given the hint: each entry (React DOM is in the entry, and its rendering code runs on every page's
 * first render) and every chunk that is not part of an entry's first load (what the entries import statically,
 * transitively). The entry's static imports (the contracts, the request layer) stay lazy: much of them never runs
 * on the login page.
 */
export function chunksGivenTheHint(bundle: Record<string, ChunkShape>): string[] {
  const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
  const firstLoad = new Set<string>();
  const visit = (fileName: string) => {
    if (firstLoad.has(fileName)) return;
    firstLoad.add(fileName);
    for (const imported of bundle[fileName]?.imports ?? []) visit(imported);
  };
  for (const chunk of chunks) if (chunk.isEntry) visit(chunk.fileName);
  return chunks.filter((chunk) => chunk.isEntry || !firstLoad.has(chunk.fileName)).map((chunk) => chunk.fileName);
}

/**
 * Asks V8 to compile every function of those chunks eagerly, when the file loads, instead of each one the first
 * time it runs (issue 27). The chunks loaded after the first page load while the login form is filled in (the
 * warm-up) or for the screen that needs them, and nearly all their code runs when the screen first renders:
 * compiled lazily, the compiling fell on the click, between the sign-in's answer and the layout's first paint
 * (about 15 ms of it on loopback, measured side by side). React DOM's rendering code, in the entry, was compiled
 * lazily on every load of a page: the first render of a reloaded layout was one task of 30 to 55 ms (Lighthouse's
 * trace, no throttling); with the hint V8 compiles it as the file streams in, and the code cache keeps all of it.
 * Every build adds the hint by the same rule, so a hashed file name still names one content (a chunk moving in or
 * out of the first load keeps its name: what a browser cached differs only in how eagerly it compiles).
 */
export function compileHints(): Plugin {
  return {
    name: 'campus-compile-hints',
    apply: 'build',
    // on the written files: Vite puts its own line at the top of chunks with dynamic imports after generateBundle
    async writeBundle(options, bundle) {
      const dir = options.dir ?? '.';
      await Promise.all(
        chunksGivenTheHint(bundle as Record<string, ChunkShape>).map(async (fileName) => {
          const file = path.join(dir, fileName);
          const code = await readFile(file, 'utf8');
          if (!code.startsWith(compileHint)) await writeFile(file, compileHint + code);
        }),
      );
    },
  };
}
