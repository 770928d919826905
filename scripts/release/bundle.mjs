// The server and its command-line tools compiled to JavaScript with esbuild: apps/server/dist/<name>.mjs inside the
// release, the same depth as apps/server/src, so config.ts's repoRoot (from import.meta.url) finds apps/shell/dist.
import { cpSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

/**
 * Packages left out of the bundles and shipped in node_modules instead: native addons, and swagger-ui, which reads
 * its files from its own package folder. better-sqlite3 and pg-native are never loaded on the shipped Node 24
 * (node:sqlite; pg's pure JavaScript client), so they are neither bundled nor shipped.
 */
export const shippedPackages = ['@node-rs/argon2', '@napi-rs/canvas', '@fastify/swagger-ui'];
const neverLoaded = ['better-sqlite3', 'pg-native'];

/** Entry points: the server, and every file of apps/server/src/cli (each one a `campus`-style command). */
export function entryPoints(root) {
  const cliDir = path.join(root, 'apps/server/src/cli');
  const entries = { main: path.join(root, 'apps/server/src/main.ts') };
  for (const file of readdirSync(cliDir).sort()) {
    if (file.endsWith('.ts') && !file.endsWith('.d.ts')) entries[file.slice(0, -3)] = path.join(cliDir, file);
  }
  return entries;
}

/**
 * The build's version in place of the release line wherever the server says its version (`campus version`, About
 * System's Version Info, backups' manifests, the start-up log): an esbuild plugin that rewrites shellVersion's value
 * in packages/contracts/src/shell-constants.ts as it is bundled.
 */
export function buildVersionPlugin(version) {
  return {
    name: 'campus-build-version',
    setup(pluginBuild) {
      pluginBuild.onLoad({ filter: /[\\/]packages[\\/]contracts[\\/]src[\\/]shell-constants\.ts$/ }, async (args) => {
        const source = readFileSync(args.path, 'utf8');
        const declaration = /export const shellVersion = '[^']+';/;
        if (!declaration.test(source)) throw new Error(`${args.path}: no "export const shellVersion = '...';" to give the build's version`);
        return { contents: source.replace(declaration, `export const shellVersion = ${JSON.stringify(version)};`), loader: 'ts' };
      });
    },
  };
}

export async function bundleServer(root, releaseDir, { version }) {
  const outdir = path.join(releaseDir, 'apps/server/dist');
  mkdirSync(outdir, { recursive: true });
  const entries = entryPoints(root);
  const result = await build({
    entryPoints: entries,
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    // shared code beside the entries (not in a subfolder): its import.meta.url must be as deep as apps/server/src/*.ts
    chunkNames: 'chunk-[hash]',
    platform: 'node',
    format: 'esm',
    target: 'node24',
    external: [...shippedPackages, ...neverLoaded],
    // CommonJS packages inside an ES module bundle still call require() and read __dirname
    banner: {
      js: [
        "import { createRequire as __campusCreateRequire } from 'node:module';",
        "import { fileURLToPath as __campusFileURLToPath } from 'node:url';",
        "import { dirname as __campusDirname } from 'node:path';",
        'const require = __campusCreateRequire(import.meta.url);',
        'const __filename = __campusFileURLToPath(import.meta.url);',
        'const __dirname = __campusDirname(__filename);',
      ].join(' '),
    },
    legalComments: 'external',
    plugins: [buildVersionPlugin(version)],
    // no comments and no indentation: V8 keeps every loaded script's source for as long as the process runs, and one
    // comment with a character outside Latin-1 (a dash, an ellipsis) stores a whole chunk's source at two bytes a
    // character (3.3 MB less source held at start, measured; docs/architecture.md, Memory). Names stay as written,
    // so a stack trace still names its functions.
    minifyWhitespace: true,
    metafile: true,
    logLevel: 'warning',
  });
  // files the server reads beside its own module (seed/seed.ts: demoLicenceFile)
  cpSync(path.join(root, 'apps/server/src/seed/demo-licence.lic'), path.join(outdir, 'demo-licence.lic'));
  const bundledPackages = new Set();
  for (const input of Object.keys(result.metafile.inputs)) {
    // the innermost node_modules folder: a nested copy is its own version with its own licence
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) bundledPackages.add(match[1]);
  }
  // package folders, relative to the repository
  return { names: Object.keys(entries), bundledPackages: [...bundledPackages].sort() };
}
