// Packs @campus/subapp-sdk for sub-app teams outside this repository (issue 28): ESM with type declarations, React
// and Vite as peers (a sub-app never bundles a second React), no workspace links. In the repository the SDK is
// consumed as TypeScript source; this makes the package npm installs from a file:
//
//   dist/subapp-sdk/campus-subapp-sdk-<version>.tgz   the package (`npm install ./campus-subapp-sdk-<version>.tgz`)
//   dist/subapp-sdk/campus-subapp-sdk-guide.md        the guide (packages/subapp-sdk/README.md)
//   dist/subapp-sdk/create-campus-subapp-<version>.tgz the starter (packages/create-campus-subapp), the SDK inside
//
// The server offers both on /tools (ToolsService); the release archive carries them. Usage:
//   node scripts/pack-subapp-sdk.mjs [--out DIR]
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sdkDir = path.join(root, 'packages/subapp-sdk');
const outArg = process.argv.indexOf('--out');
if (outArg > 0 && !process.argv[outArg + 1]) {
  console.error('pack-subapp-sdk: --out needs the folder to write to (node scripts/pack-subapp-sdk.mjs [--out DIR])');
  process.exit(2);
}
const outDir = path.resolve(outArg > 0 ? process.argv[outArg + 1] : path.join(root, 'dist/subapp-sdk'));

const source = JSON.parse(readFileSync(path.join(sdkDir, 'package.json'), 'utf8'));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** The declaration files keep the source's `./x.ts` specifiers: a consumer resolves `./x.js` next to `x.d.ts`. */
function rewriteDeclarations(dir) {
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.d.ts')) continue;
    const file = path.join(dir, name);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/(from\s+['"]\.{1,2}\/[^'"]+)\.tsx?(['"])/g, '$1.js$2'));
  }
}

/** One export per entry of the source package: `./src/x.ts` becomes dist/x.js with dist/x.d.ts. */
function distExports() {
  return Object.fromEntries(
    Object.entries(source.exports).map(([entry, file]) => {
      const base = `./dist/${path.basename(file).replace(/\.tsx?$/, '')}`;
      return [entry, { types: `${base}.d.ts`, default: `${base}.js` }];
    }),
  );
}

/** Packs the folder `dir` into outDir with npm; returns npm's account of it (the tarball's `filename`, `entryCount`). */
function npmPack(dir) {
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', outDir], { cwd: dir, encoding: 'utf8' }));
  return packed;
}

/**
 * The Vue starter's own packages (issue 48 item 16): the shell is a React app, so Vue is not installed here; these
 * are the lines the browser suite installs from the registry and runs in the shell (e2e/tests/vue-sub-app.spec.ts).
 */
const vueStarterVersions = { vue: '^3.5.25', '@vitejs/plugin-vue': '~6.0.2', 'vue-tsc': '~3.3.0' };

/** The version ranges the starter's apps get: those this repository builds and tests its own sub-app with. */
function starterVersions() {
  // as Node finds them from apps/subapp-qy (not every package lets its package.json be resolved)
  const installed = (name) => {
    const file = [path.join(root, 'apps/subapp-qy/node_modules', name, 'package.json'), path.join(root, 'node_modules', name, 'package.json')].find((candidate) => existsSync(candidate));
    if (!file) throw new Error(`${name} is not installed (npm ci)`);
    return JSON.parse(readFileSync(file, 'utf8')).version;
  };
  // React and its types follow the major the shell lends; the tools stay on the minor line tried here (a newer one
  // may need a newer Node)
  const libraries = ['react', 'react-dom', '@types/react', '@types/react-dom'];
  const tools = ['vite', '@vitejs/plugin-react', 'vitest', 'jsdom', 'typescript'];
  return { ...Object.fromEntries([...libraries.map((name) => [name, `^${installed(name)}`]), ...tools.map((name) => [name, `~${installed(name)}`])]), ...vueStarterVersions };
}

const starterDir = path.join(root, 'packages/create-campus-subapp');

/** The starter (create-campus-subapp) with this SDK's tarball and the version ranges inside. */
function packStarter(sdkTarball) {
  const starter = mkdtempSync(path.join(os.tmpdir(), 'create-campus-subapp-'));
  try {
    cpSync(path.join(starterDir, 'create.mjs'), path.join(starter, 'create.mjs'));
    cpSync(path.join(starterDir, 'README.md'), path.join(starter, 'README.md'));
    cpSync(path.join(starterDir, 'templates'), path.join(starter, 'templates'), { recursive: true, filter: (from) => !/[/\\](node_modules|dist)$/.test(from) });
    mkdirSync(path.join(starter, 'sdk'));
    cpSync(path.join(outDir, sdkTarball), path.join(starter, 'sdk', sdkTarball));
    writeFileSync(path.join(starter, 'versions.json'), `${JSON.stringify({ sdk: source.version, packages: starterVersions() }, null, 2)}\n`);
    const own = JSON.parse(readFileSync(path.join(starterDir, 'package.json'), 'utf8'));
    const published = { name: own.name, version: source.version, description: own.description, type: 'module', license: 'UNLICENSED', bin: own.bin, files: ['create.mjs', 'templates', 'sdk', 'versions.json', 'README.md'] };
    writeFileSync(path.join(starter, 'package.json'), `${JSON.stringify(published, null, 2)}\n`);
    // npm leaves .gitignore files out of a package: a template carries none, create.mjs writes it
    return npmPack(starter);
  } finally {
    rmSync(starter, { recursive: true, force: true });
  }
}

const staging = mkdtempSync(path.join(os.tmpdir(), 'campus-subapp-sdk-'));
try {
  execFileSync(process.execPath, [tsc, '-p', path.join(sdkDir, 'tsconfig.build.json'), '--outDir', path.join(staging, 'dist')], { stdio: 'inherit' });
  rewriteDeclarations(path.join(staging, 'dist'));
  const published = {
    name: source.name,
    version: source.version,
    description: source.description,
    type: 'module',
    license: 'UNLICENSED',
    // the shells this SDK version fits: they check it at bootstrap (same major, no newer minor than theirs)
    campusShell: source.campusShell,
    sideEffects: false,
    exports: distExports(),
    files: ['dist', 'README.md'],
    peerDependencies: source.peerDependencies,
    peerDependenciesMeta: source.peerDependenciesMeta,
  };
  writeFileSync(path.join(staging, 'package.json'), `${JSON.stringify(published, null, 2)}\n`);
  copyFileSync(path.join(sdkDir, 'README.md'), path.join(staging, 'README.md'));

  mkdirSync(outDir, { recursive: true });
  // one version at a time: an older tarball left here would be offered beside the new one
  for (const name of readdirSync(outDir)) if (/^(campus-subapp-sdk|create-campus-subapp)-.*\.tgz$/.test(name)) rmSync(path.join(outDir, name));
  const packed = npmPack(staging);
  copyFileSync(path.join(sdkDir, 'README.md'), path.join(outDir, 'campus-subapp-sdk-guide.md'));
  const starter = packStarter(packed.filename);
  const shown = (file) => path.relative(root, path.join(outDir, file));
  console.log(`@campus/subapp-sdk ${source.version}: ${shown(packed.filename)} (${packed.entryCount} files), the guide, and the starter ${shown(starter.filename)}`);
} finally {
  rmSync(staging, { recursive: true, force: true });
}
