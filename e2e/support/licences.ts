import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tmpFolderFor } from './env.ts';
import { asSetUp } from './set-up-time.ts';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Where the browser tests keep the licence files they issue. */
export const licenceWorkDir = tmpFolderFor('e2e-licences');

/** Issues a licence with the vendor CLI and the repository's test key, as a vendor would (set-up time). */
export function issueLicence(code: string, end = '2099-12-31'): Promise<string> {
  return asSetUp(() => runLicenceCli(code, end));
}

function runLicenceCli(code: string, end: string): string {
  mkdirSync(licenceWorkDir, { recursive: true });
  const out = path.join(licenceWorkDir, `${code}.lic`);
  execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(repoRoot, 'apps/server/src/cli/licence.ts'),
      'issue',
      '--key',
      path.join(repoRoot, 'apps/server/licence-keys/test-private/test-ed25519-2026.private.json'),
      '--customer-no',
      '10001',
      '--customer-name',
      'Demo Campus',
      '--package',
      'Enterprise',
      '--begin',
      '2026-01-01',
      '--end',
      end,
      '--employees',
      'unlimited',
      '--apps',
      'all',
      '--code',
      code,
      '--out',
      out,
    ],
    { cwd: repoRoot, stdio: 'pipe' },
  );
  return out;
}
