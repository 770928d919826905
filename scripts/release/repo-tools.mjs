// This checkout's programs that the release tests drive from outside the release under test (through tsx).
import { spawnSync } from 'node:child_process';
import path from 'node:path';

/** Runs a TypeScript program of the checkout at `root`; its status, stdout and stderr. */
export function repoTool(root, args) {
  return spawnSync(process.execPath, ['--import', 'tsx', ...args], { cwd: root, encoding: 'utf8' });
}

/** A licence for customer 10001 (unlimited, to 2099) signed with the repository's TEST vendor key, into `out`. */
export function issueTestLicence(root, { out, code, customerName }) {
  return repoTool(root, [path.join(root, 'apps/server/src/cli/licence.ts'), 'issue', '--key', path.join(root, 'apps/server/licence-keys/test-private/test-ed25519-2026.private.json'),
    '--customer-no', '10001', '--customer-name', customerName, '--package', 'Enterprise', '--begin', '2026-01-01', '--end', '2099-12-31',
    '--employees', 'unlimited', '--apps', 'all', '--code', code, '--out', out]);
}
