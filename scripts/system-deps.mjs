// Finds the Debian packages the test suite needs (Chromium for browser tests, slapd for LDAP tests, nginx for the
// server nodes behind a reverse proxy, promtool for the monitoring files, pcscd with a virtual reader and card for
// the PC/SC tests) and installs the missing ones when running as root. Without root, a missing required package stops with the exact command; the
// PC/SC packages are optional: their tests are then skipped, and this says so.
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** How the benchmarks start Chromium: nothing in the background that would share the CPU with what they measure. */
export const benchChromiumArgs = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];


const requirements = [
  { what: 'Chromium (browser tests)', file: chromiumPath, packages: ['chromium'] },
  { what: 'slapd (LDAP tests)', file: '/usr/sbin/slapd', packages: ['slapd', 'ldap-utils'] },
  // the reverse proxy the several-node set-up of docs/operating.md names: the two-node test runs its template in front of them
  { what: 'nginx (two server nodes behind a reverse proxy)', file: '/usr/sbin/nginx', packages: ['nginx'] },
  // the monitoring tests lint /metrics and check the shipped alert rules (deploy/monitoring) with Prometheus's promtool
  { what: 'promtool (Prometheus metrics and rules checks)', file: '/usr/bin/promtool', packages: ['prometheus'] },
  // the upgrade test changes rows behind a server's back to prove its checker can fail
  { what: 'sqlite3 (upgrade test)', file: '/usr/bin/sqlite3', packages: ['sqlite3'] },
  // the linux-arm64 release archive runs under QEMU's user-mode emulator with arm64 C libraries (release:test:arm64)
  {
    what: 'qemu-aarch64 and arm64 C libraries (the linux-arm64 release test)',
    file: '/usr/bin/qemu-aarch64-static',
    also: ['/usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1', '/usr/aarch64-linux-gnu/lib/libstdc++.so.6'],
    packages: ['qemu-user-static', 'libc6-arm64-cross', 'libstdc++6-arm64-cross'],
  },
  {
    what: 'pcscd, a virtual reader and card (PC/SC tests)',
    file: '/usr/lib/pcsc/drivers/serial/libifdvpcd.so',
    also: ['/usr/sbin/pcscd', '/usr/lib/python3/site-packages/virtualsmartcard', '/usr/lib/python3/dist-packages/Cryptodome'],
    packages: ['pcscd', 'vsmartcard-vpcd', 'python3-virtualsmartcard', 'python3-pycryptodome'],
    optional: true,
  },
];

const present = (r) => [r.file, ...(r.also ?? [])].every((file) => existsSync(file));

export function ensureSystemDeps() {
  const missing = requirements.filter((r) => !present(r));
  const command = (list) => `apt-get update && apt-get install -y ${list.flatMap((r) => r.packages).join(' ')}`;
  if (missing.length > 0 && process.getuid?.() !== 0) {
    const required = missing.filter((r) => !r.optional);
    const optional = missing.filter((r) => r.optional);
    if (optional.length > 0) {
      console.warn(`Not installed: ${optional.map((r) => r.what).join(', ')}: those tests will be skipped.\nTo run them, as root:\n  ${command(optional)}`);
    }
    if (required.length > 0) {
      console.error(`Missing: ${required.map((r) => r.what).join(', ')}.\nInstall them with:\n  sudo sh -c '${command(required)}'`);
      process.exit(2);
    }
    return;
  }
  if (missing.length > 0) {
    const packages = missing.flatMap((r) => r.packages);
    console.log(`Installing ${packages.join(', ')} (${missing.map((r) => r.what).join(', ')}) ...`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', ...packages], { stdio: 'inherit', env });
    const still = missing.filter((r) => !present(r));
    if (still.length > 0) {
      console.error(`Still missing after install: ${still.map((r) => r.what).join(', ')}`);
      process.exit(2);
    }
  }
}
