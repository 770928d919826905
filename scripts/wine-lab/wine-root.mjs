// The Debian 13 (trixie) root the Windows card issuer is tested in: Wine 10 with a Windows 10 prefix, pcscd, the
// vsmartcard virtual reader and virtual cards (notes.md "Windows card issuer under Wine"). Debian 12's Wine 8 cannot
// run Node 24 nor reach pcscd, so the root is made with debootstrap from Debian's own mirror; the host's package
// sources stay untouched. It is made once per machine, outside any clone (CAMPUS_WINE_ROOT, by default
// /var/cache/campus-shell/wine10-trixie), and every run mounts an overlay over it, so the cached root never changes.
// `node scripts/wine-lab/wine-root.mjs` makes it (about 2 minutes and 2.1 GB here) and prints where it is.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const wineRootDir = process.env.CAMPUS_WINE_ROOT ?? '/var/cache/campus-shell/wine10-trixie';
const mirror = process.env.CAMPUS_DEBIAN_MIRROR ?? 'http://deb.debian.org/debian';
/** What is in the root. A change here makes the root again (the stamp below no longer matches). */
export const rootPackages = ['wine', 'wine64', 'pcscd', 'vsmartcard-vpcd', 'vsmartcard-vpicc', 'python3-virtualsmartcard', 'python3-pycryptodome', 'unzip', 'procps'];
const recipe = `trixie minbase; ${rootPackages.join(' ')}; prefix win10 at /opt/wine-prefix; v1`;
const stampFile = (root) => path.join(root, '.campus-wine-root');
/** The Wine prefix inside the root, made at build time so that a run does not spend 20 s on wineboot. */
export const winePrefix = '/opt/wine-prefix';

/** Why the Wine lab cannot run here, or null when it can (it needs root: chroot, mounts, namespaces). */
export function wineLabProblem() {
  if (process.platform !== 'linux' || process.arch !== 'x64') return 'the Wine lab runs on Linux x64 only';
  if (process.getuid?.() !== 0) return 'the Wine lab needs root (chroot, mounts and a network namespace)';
  for (const tool of ['/usr/bin/unshare', '/usr/sbin/chroot']) if (!existsSync(tool)) return `${tool} is missing (util-linux, coreutils)`;
  return null;
}

export const wineRootReady = (root = wineRootDir) => existsSync(stampFile(root)) && readFileSync(stampFile(root), 'utf8').trim() === recipe;

/**
 * Runs `script` (sh) inside `root` as a chroot in a private mount namespace (so every mount ends with it):
 * /proc, /dev, /sys, a tmpfs /tmp and /run/pcscd. Options:
 * - `overlay`: a host folder for an overlay's upper layer: the run sees the root with its changes there, and the
 *   cached root stays as it was (every test run uses one);
 * - `binds`: host folders to show inside the root ({ from, to }, `to` made when missing);
 * - `network: false`: a network namespace of its own with only loopback up, where pcscd's socket and vpcd's port
 *   meet no other run (the host then cannot reach what listens in it);
 * - `detached`: spawn it and answer the child process instead of waiting.
 */
export function runInRoot(root, script, { network = true, env = {}, stdio = 'inherit', timeout, overlay, binds = [], detached = false } = {}) {
  const q = (text) => `'${String(text).replaceAll("'", "'\\''")}'`;
  const top = overlay ? `${overlay}/merged` : root;
  const mounts = [
    ...(overlay
      ? [`mkdir -p ${q(`${overlay}/upper`)} ${q(`${overlay}/work`)} ${q(top)}`, `mount -t overlay overlay -o ${q(`lowerdir=${root},upperdir=${overlay}/upper,workdir=${overlay}/work`)} ${q(top)}`]
      : []),
    `mount -t proc proc ${q(`${top}/proc`)}`,
    `mount --rbind /dev ${q(`${top}/dev`)}`,
    `{ mount -t sysfs sysfs ${q(`${top}/sys`)} 2>/dev/null || true; }`,
    `mount -t tmpfs tmpfs ${q(`${top}/tmp`)}`,
    `mkdir -p ${q(`${top}/run/pcscd`)}`,
    `mount -t tmpfs tmpfs ${q(`${top}/run/pcscd`)}`,
    ...binds.flatMap(({ from, to }) => [`mkdir -p ${q(`${top}${to}`)}`, `mount --bind ${q(from)} ${q(`${top}${to}`)}`]),
    network ? `{ cp /etc/resolv.conf ${q(`${top}/etc/resolv.conf`)} 2>/dev/null || true; }` : '{ ip link set lo up 2>/dev/null || true; }',
  ].join(' && ');
  const exports = Object.entries({ PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', HOME: '/root', LANG: 'C.UTF-8', ...env })
    .map(([k, v]) => `${k}=${q(v)}`)
    .join(' ');
  const inner = `${mounts} && exec chroot ${q(top)} /usr/bin/env -i ${exports} /bin/sh -c ${q(script)}`;
  const args = ['-m', '--propagation', 'private', ...(network ? [] : ['-n']), '/bin/sh', '-c', inner];
  if (detached) return spawn('unshare', args, { stdio });
  return spawnSync('unshare', args, { stdio, timeout, encoding: 'utf8' });
}

function must(result, what) {
  if (result.status !== 0) throw new Error(`${what} failed (exit ${result.status ?? result.signal}${result.stderr ? `: ${String(result.stderr).trim().split('\n').slice(-3).join(' / ')}` : ''})`);
}

/** Makes the root if this machine has none (or an older recipe's); answers its folder. */
export function ensureWineRoot({ log = console.log } = {}) {
  const problem = wineLabProblem();
  if (problem) throw new Error(problem);
  if (wineRootReady()) return wineRootDir;
  // test files start in parallel: one makes the root, the others wait for it
  mkdirSync(path.dirname(wineRootDir), { recursive: true });
  const lock = `${wineRootDir}.lock`;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (wineRootReady()) return wineRootDir;
      // a lock older than any build is left by a killed run
      if (Date.now() - statSync(lock, { throwIfNoEntry: false })?.mtimeMs > 20 * 60_000) rmSync(lock, { recursive: true, force: true });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
    }
  }
  try {
    if (wineRootReady()) return wineRootDir;
    return makeWineRoot(log);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function makeWineRoot(log) {
  const started = Date.now();
  log(`Making the Wine 10 test root (Debian 13) in ${wineRootDir}: once per machine, about 2 minutes and 2.1 GB ...`);
  if (!existsSync('/usr/sbin/debootstrap')) {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', 'debootstrap'], { stdio: 'inherit', env });
  }
  const building = `${wineRootDir}.building`;
  rmSync(building, { recursive: true, force: true });
  must(spawnSync('debootstrap', ['--variant=minbase', 'trixie', building, mirror], { stdio: ['ignore', 'ignore', 'inherit'] }), 'debootstrap trixie');
  must(
    runInRoot(building, `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${rootPackages.join(' ')} >/tmp/apt.log 2>&1 || { tail -20 /tmp/apt.log >&2; exit 1; }; apt-get clean`),
    'installing Wine 10, pcscd and vsmartcard in the root',
  );
  must(
    runInRoot(
      building,
      `export WINEPREFIX=${winePrefix} WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" && wineboot -i >/tmp/wineboot.log 2>&1 && wine reg add "HKLM\\\\Software\\\\Microsoft\\\\Windows NT\\\\CurrentVersion" /v CurrentBuild /d 19045 /f >/dev/null 2>&1; winecfg /v win10 >/dev/null 2>&1; wineserver -w; test -d ${winePrefix}/drive_c/windows || { tail -20 /tmp/wineboot.log >&2; exit 1; }`,
    ),
    'making the Windows 10 prefix',
  );
  writeFileSync(stampFile(building), `${recipe}\n`);
  rmSync(wineRootDir, { recursive: true, force: true });
  renameSync(building, wineRootDir);
  log(`Made the Wine test root in ${Math.round((Date.now() - started) / 1000)} s.`);
  return wineRootDir;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    console.log(ensureWineRoot());
  } catch (error) {
    console.error(`wine-root: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
