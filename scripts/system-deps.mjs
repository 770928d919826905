// Finds the Debian packages the test suite needs (Chromium for browser tests, slapd for LDAP tests)
// and installs the missing ones when running as root; otherwise stops with the exact command.
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const requirements = [
  { what: 'Chromium (browser tests)', file: chromiumPath, packages: ['chromium'] },
  { what: 'slapd (LDAP tests)', file: '/usr/sbin/slapd', packages: ['slapd', 'ldap-utils'] },
];

export function ensureSystemDeps() {
  const missing = requirements.filter((r) => !existsSync(r.file));
  if (missing.length === 0) return;
  const packages = missing.flatMap((r) => r.packages);
  const command = `apt-get update && apt-get install -y ${packages.join(' ')}`;
  if (process.getuid?.() !== 0) {
    console.error(`Missing: ${missing.map((r) => r.what).join(', ')}.\nInstall them with:\n  sudo sh -c '${command}'`);
    process.exit(2);
  }
  console.log(`Installing ${packages.join(', ')} (${missing.map((r) => r.what).join(', ')}) ...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', ...packages], { stdio: 'inherit', env });
  const still = missing.filter((r) => !existsSync(r.file));
  if (still.length > 0) {
    console.error(`Still missing after install: ${still.map((r) => r.file).join(', ')}`);
    process.exit(2);
  }
}
