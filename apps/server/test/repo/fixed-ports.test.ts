import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import { e2eServerFor, portFor, tmpFolderFor } from '../../../../e2e/support/env.ts';

// The server suite runs its files in parallel workers (and on Node 20 and 24 at once), the browser suite in two
// workers with a server each: a port written as a number meets itself. `npm run lint` refuses one where a test
// listens (eslint.config.js, fixedPortSelectors); each snippet is linted as the file at `path`.
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: repoRoot });
});

async function portErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${repoRoot}${path}` });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

describe('fixed ports in tests (eslint.config.js)', () => {
  it('a browser spec that names a second server, a gate deployment or a dev server port as a number is refused', async () => {
    const code = [
      "import { startSecondServer } from '../support/second-server.ts';",
      "import { startGateDeployment } from '../support/gate-deployment.ts';",
      'const gatePort = 6393;',
      'const variants = [{ appNo: "porders", devPort: 6481 }];',
      "export const started = [startSecondServer(6386, {}), startGateDeployment(gatePort, 18193), variants];",
      '',
    ].join('\n');
    const errors = await portErrors('e2e/tests/new-feature.spec.ts', code);
    expect(errors).toHaveLength(4);
    for (const message of errors) expect(message).toContain('portFor()');
  });

  it('the same spec with its numbers through portFor passes', async () => {
    const code = [
      "import { portFor } from '../support/env.ts';",
      "import { startSecondServer } from '../support/second-server.ts';",
      "import { startGateDeployment } from '../support/gate-deployment.ts';",
      'const gatePort = portFor(6393);',
      'const variants = [{ appNo: "porders", devPort: portFor(6481) }];',
      "export const started = [startSecondServer(portFor(6386), {}), startGateDeployment(gatePort, portFor(18193)), variants];",
      '',
    ].join('\n');
    expect(await portErrors('e2e/tests/new-feature.spec.ts', code)).toEqual([]);
  });

  it('a server test that starts a server or listens on a fixed port is refused; port 0 and freePort pass', async () => {
    const bad = [
      "import { startServerProcess } from '../support/server-process.ts';",
      'const clusterPort = 55401;',
      "export const s = [startServerProcess({ port: 7221, dataDir: '', databaseUrl: null }), clusterPort];",
      "export const listening = (app: { listen: (o: object) => void }) => app.listen({ host: '127.0.0.1', port: 7203 });",
      '',
    ].join('\n');
    const errors = await portErrors('apps/server/test/platform/new-area.test.ts', bad);
    expect(errors).toHaveLength(3);
    for (const message of errors) expect(message).toContain('freePort()');
    const good = [
      "import { freePort } from '../support/free-port.ts';",
      "import { startServerProcess } from '../support/server-process.ts';",
      "export const s = async () => startServerProcess({ port: await freePort(), dataDir: '', databaseUrl: null });",
      "export const listening = (app: { listen: (o: object) => void }) => app.listen({ host: '127.0.0.1', port: 0 });",
      // what a test expects of the configuration is no port it listens on
      "export const defaults = { port: 6300, host: '0.0.0.0' };",
      '',
    ].join('\n');
    expect(await portErrors('apps/server/test/platform/new-area.test.ts', good)).toEqual([]);
  });
});

describe('the browser suite\'s worker slots (e2e/support/env.ts)', () => {
  it('each slot has its own server port, data folder and second-server ports; slot 0 keeps the numbers as written', () => {
    expect(portFor(6393, 0)).toBe(6393);
    expect(portFor(6393, 1)).toBe(7393);
    expect(portFor(18193, 1)).toBe(19193);
    const [first, second] = [e2eServerFor(0), e2eServerFor(1)];
    expect(second.port).toBe(first.port + 1000);
    expect(first.dataDir).toMatch(/\/\.tmp\/e2e-data$/);
    expect(second.dataDir).toMatch(/\/\.tmp\/e2e-data-1$/);
    expect(tmpFolderFor('e2e-licences', 1)).toMatch(/\/\.tmp\/e2e-licences-1$/);
  });
});
