// Starts the real server for the browser tests on a fresh SQLite data folder, serving the built shell.
// NODE_ENV=test lets TEST_CAPTCHA_TEXT fix the image code so a test can type it.
import { rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
// E2E_DATA_DIR: a second server (another port) keeps its own data
const dataDir = path.resolve(root, process.env.E2E_DATA_DIR ?? path.join('.tmp', 'e2e-data'));
// E2E_KEEP_DATA=1: a restart of a second server on the data it had (licence dates under a moved clock)
if (process.env.E2E_KEEP_DATA !== '1') rmSync(dataDir, { recursive: true, force: true });

const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    DATABASE_URL: '', // the browser tests run on the embedded default
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    NODE_ENV: 'test',
    TEST_CAPTCHA_TEXT: process.env.TEST_CAPTCHA_TEXT ?? 'K7PX',
    // every test signs in from 127.0.0.1; the per-address limit itself is covered by the API suite
    RATE_LIMIT_PER_MINUTE: '2000',
    // a private deployment, so the user menu shows Backup Logs and (for system administrators) the
    // operations platform, whose address here is only checked, never served
    PRIVATE_DEPLOYMENT: 'on',
    OPS_PLATFORM_URL: `http://127.0.0.1:${process.env.PORT ?? '6391'}/ops-platform/`,
    // a second sub-app (attendance, kq) beside the bundled enterprise-data one; door access (mj) stays absent
    SUBAPPS_DIR: path.join(root, 'e2e', 'fixtures', 'subapps'),
    // the test identity providers (OpenID Connect, CAS) run on this machine: loopback opened to them
    SSO_PROVIDER_NETWORKS: process.env.SSO_PROVIDER_NETWORKS ?? '127.0.0.0/8,::1',
  },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
