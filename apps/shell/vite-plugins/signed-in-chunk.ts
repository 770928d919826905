import { build, type Plugin, type ResolvedConfig } from 'vite';

/** What the chunk walk needs of a built chunk: its file, what it was made for, and the files it imports statically. */
export interface BuiltChunk {
  type: 'chunk';
  fileName: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: readonly string[];
  moduleIds: readonly string[];
}

/** The files of `roots` and of every chunk they import statically, transitively (`byFile`: the build's chunks by file). */
export function staticClosure(byFile: ReadonlyMap<string, { imports: readonly string[] }>, roots: readonly { fileName: string }[]): Set<string> {
  const seen = new Set<string>();
  const pending = roots.map((chunk) => chunk.fileName);
  while (pending.length > 0) {
    const fileName = pending.pop()!;
    if (seen.has(fileName)) continue;
    seen.add(fileName);
    pending.push(...(byFile.get(fileName)?.imports ?? []));
  }
  return seen;
}

/**
 * The modules of the chunks a page loads with `signedIn` (the chunks made for those modules and every chunk they
 * import statically), except the chunks an earlier page has loaded: the entry's and `before`'s, with their imports.
 */
export function firstLoadModules(chunks: readonly BuiltChunk[], signedIn: readonly string[], before: readonly string[]): Set<string> {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const byModule = new Map(chunks.filter((chunk) => chunk.facadeModuleId).map((chunk) => [chunk.facadeModuleId!, chunk]));
  const chunkOf = (id: string) => {
    const chunk = byModule.get(id);
    if (!chunk) throw new Error(`signed-in chunk: no chunk is made for ${id}; is it still loaded with import()?`);
    return chunk;
  };
  const closure = (roots: readonly BuiltChunk[]) => staticClosure(byFile, roots);
  const earlier = closure([...chunks.filter((chunk) => chunk.isEntry), ...before.map(chunkOf)]);
  const modules = new Set<string>();
  for (const fileName of closure(signedIn.map(chunkOf))) {
    if (!earlier.has(fileName)) for (const id of byFile.get(fileName)!.moduleIds) modules.add(id);
  }
  return modules;
}

export interface SignedInChunk {
  plugin: Plugin;
  /** For the code-splitting group: whether a module belongs in the signed-in layout's one chunk. */
  test: (id: string) => boolean;
}

/** Set while the plugin builds the shell once more to read its chunks, so that build splits as the bundler would. */
const probeFlag = 'CAMPUS_SIGNED_IN_CHUNK_PROBE';

/**
 * One chunk for the code of the signed-in layout's first load (issue 27). Left to the bundler it came in about
 * thirty-five files, split by which of the lazily loaded screens also use each piece of antd; every file cost the
 * browser a request and the page a module to fetch, instantiate and evaluate, on a phone's busy cores while the
 * layout loads. What the first load is, only the bundler knows once it has dropped what nothing uses (antd's index
 * names every component; the layout uses a few): so the plugin builds the shell once without writing it, takes the
 * modules of the chunks `signedIn` (the modules the layout's first load and the login page's warm-up import) loads,
 * except those the entry and `before` (the pages before sign-in) load, and the real build puts those in one chunk.
 * A screen opened later that uses one of these modules finds the chunk loaded; a card screen before sign-in loads it
 * whole, and the layout it leads to needs it next.
 */
export function signedInChunk(signedIn: readonly string[], before: readonly string[]): SignedInChunk {
  let modules = new Set<string>();
  let config: ResolvedConfig | null = null;
  const plugin: Plugin = {
    name: 'campus:signed-in-chunk',
    apply: (_config, env) => env.command === 'build' && !process.env[probeFlag],
    configResolved(resolved) {
      config = resolved;
    },
    async buildStart() {
      process.env[probeFlag] = '1';
      try {
        const output = await build({ configFile: config!.configFile, root: config!.root, mode: config!.mode, logLevel: 'silent', build: { write: false } });
        const [first] = Array.isArray(output) ? output : [output];
        if (!first || !('output' in first)) throw new Error('signed-in chunk: the probe build gave no chunks');
        const chunks = first.output.filter((item): item is typeof item & BuiltChunk => item.type === 'chunk');
        modules = firstLoadModules(chunks, signedIn, before);
      } finally {
        delete process.env[probeFlag];
      }
    },
  };
  return { plugin, test: (id) => modules.has(id) };
}
