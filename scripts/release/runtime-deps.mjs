// The production dependencies a release ships in node_modules: the packages left out of the bundles (bundle.mjs)
// with their own dependencies, and the native addons' build for the target platform.
import { cpSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { packFromRegistry, unpackPackage } from './node-runtime.mjs';

/** The prebuilt addon package of a native package for a platform (linux-x64 -> @node-rs/argon2-linux-x64-gnu). */
const nativePlatformPackage = (name, platform) => `${name}-${platform}-gnu`;
const nativePackages = ['@node-rs/argon2', '@napi-rs/canvas'];

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** Where a package is installed for a dependent in dir (node_modules lookup, upwards to the repository root). */
function locate(name, fromDir, root) {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (dir === root || dir === path.dirname(dir)) return null;
  }
}

/**
 * Copies each package and its `dependencies` (not optional or dev ones) from the repository's node_modules into
 * the release, keeping nested copies nested. Returns the shipped package folders (for the notices).
 */
export function copyRuntimePackages(root, releaseDir, names) {
  const shipped = new Map();
  const visit = (name, fromDir, targetParent) => {
    const source = locate(name, fromDir, root);
    if (!source) throw new Error(`${name} is not installed (run npm ci)`);
    // a package hoisted to the root goes to the release's root node_modules, a nested one stays nested
    const nested = path.relative(root, source).split(path.sep).filter((part) => part === 'node_modules').length > 1;
    const target = nested ? path.join(targetParent, 'node_modules', name) : path.join(releaseDir, 'node_modules', name);
    if (shipped.has(target)) return;
    shipped.set(target, source);
    cpSync(source, target, { recursive: true, dereference: true, filter: (file) => !/[/\\]node_modules$/.test(file) || file === source });
    for (const dependency of Object.keys(readJson(path.join(source, 'package.json')).dependencies ?? {})) visit(dependency, source, target);
  };
  for (const name of names) visit(name, root, releaseDir);
  return [...shipped.keys()];
}

/** The native addons for the target: copied from node_modules when installed here, else `npm pack`ed. */
export function addNativeAddons(root, releaseDir, platform, cacheDir) {
  const added = [];
  for (const name of nativePackages) {
    const addon = nativePlatformPackage(name, platform);
    const target = path.join(releaseDir, 'node_modules', addon);
    const installed = path.join(root, 'node_modules', addon);
    if (existsSync(path.join(installed, 'package.json'))) {
      cpSync(installed, target, { recursive: true, dereference: true });
    } else {
      // the same version as the installed JavaScript part asks for
      const version = readJson(path.join(root, 'node_modules', name, 'package.json')).optionalDependencies?.[addon];
      if (!version) throw new Error(`${name} names no ${addon} build`);
      unpackPackage(packFromRegistry(cacheDir, addon, version), target);
    }
    added.push(target);
  }
  return added;
}
