import type { Plugin } from 'vite';
import { signedInFilesMetaName, signedInPreloadScript } from '../../../packages/contracts/src/signed-in-preload.ts';
import { languageCodes } from '../../../packages/contracts/src/languages.ts';
import { staticClosure } from './signed-in-chunk.ts';

/** What the walk needs of a built chunk: its file, the modules in it, what it imports statically and its CSS. */
export interface PreloadChunk {
  type: 'chunk';
  fileName: string;
  isEntry: boolean;
  imports: readonly string[];
  moduleIds: readonly string[];
  viteMetadata?: { importedCss: ReadonlySet<string> };
}

/**
 * The files (scripts, then stylesheets) a signed-in page's first load fetches beyond the entry's: the chunks that
 * hold `modules` and what they import statically, without the entry and its imports (index.html names those already).
 */
export function signedInFirstLoadFiles(chunks: readonly PreloadChunk[], modules: readonly string[]): string[] {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const closure = (roots: readonly PreloadChunk[]) => staticClosure(byFile, roots);
  const roots = modules.map((id) => {
    const chunk = chunks.find((candidate) => candidate.moduleIds.includes(id));
    if (!chunk) throw new Error(`signed-in preload: no chunk holds ${id}; is it still part of the build?`);
    return chunk;
  });
  const entry = closure(chunks.filter((chunk) => chunk.isEntry));
  const scripts = [...closure(roots)].filter((fileName) => !entry.has(fileName)).sort();
  const styles = scripts.flatMap((fileName) => [...(byFile.get(fileName)?.viteMetadata?.importedCss ?? [])]);
  return [...scripts, ...new Set(styles)];
}

/** Each language's texts chunk as `<language>=<file>`: the chunk made of `languageModule(language)`. */
export function languageFiles(chunks: readonly PreloadChunk[], languages: readonly string[], languageModule: (language: string) => string): string[] {
  return languages.map((language) => {
    const id = languageModule(language);
    const chunk = chunks.find((candidate) => candidate.moduleIds.length === 1 && candidate.moduleIds[0] === id);
    if (!chunk) throw new Error(`signed-in preload: no chunk of its own holds the texts ${id}`);
    return `${language}=${chunk.fileName}`;
  });
}

/**
 * index.html gets the script that asks for the signed-in layout's files at once when a session is stored
 * (packages/contracts/src/signed-in-preload.ts), and the meta element naming those files: `modules` are the modules
 * of the layout's first load (the router and the layout's chunk), `languageModule` names each language's texts.
 */
export function signedInPreload(modules: readonly string[], languageModule: (language: string) => string): Plugin {
  let base = '/';
  return {
    name: 'campus:signed-in-preload',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        if (!context.bundle) return html;
        const chunks = Object.values(context.bundle).filter((item): item is typeof item & PreloadChunk => item.type === 'chunk');
        const files = [...signedInFirstLoadFiles(chunks, modules), ...languageFiles(chunks, languageCodes, languageModule)].map((entry) => entry.replace(/^(?:([^=]+)=)?/, (prefix) => `${prefix}${base}`));
        // before the stylesheet and the entry: a script after a stylesheet waits for it, and these files are wanted
        // as early as the entry
        const at = html.indexOf('</title>');
        if (at < 0) throw new Error('signed-in preload: index.html has no <title>');
        const tags = `\n    <meta name="${signedInFilesMetaName}" content="${files.join(' ')}">\n    <script>${signedInPreloadScript}</script>`;
        return `${html.slice(0, at + '</title>'.length)}${tags}${html.slice(at + '</title>'.length)}`;
      },
    },
  };
}
