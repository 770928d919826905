import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { asSetUp } from './set-up-time.ts';
import { startSecondServer, type SecondServer } from './second-server.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface GateDeployment {
  server: SecondServer;
  issuerUrl: string;
  /** The virtual reader's test API (the reader panel's): place a card, take it off, fail the next operation. */
  reader: {
    place: (fixedNo: string) => Promise<void>;
    remove: () => Promise<void>;
    failNext: (op: 'read' | 'write', code: number) => Promise<void>;
  };
  stop: () => Promise<void>;
}

async function waitFor(url: string, child: ChildProcess, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`${what} stopped with exit code ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`${what} did not answer on ${url} within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * A fresh gate deployment (MJ_SYSTEM 21) on its own port, with its own card issuer and virtual reader holding
 * the demo's mother card and blank cards DE000002–DE000004, as `MJ_SYSTEM=21 npm start` makes them; or, with
 * `issuerEnv` CARD_READER=pcsc, the issuer on a PC/SC reader (the cards are then the test's).
 */
export async function startGateDeployment(serverPort: number, issuerPort: number, serverEnv: Record<string, string> = {}, issuerEnv: Record<string, string> = {}): Promise<GateDeployment> {
  const issuerUrl = `http://127.0.0.1:${issuerPort}`;
  const dataDir = path.join(root, '.tmp', `e2e-issuer-${issuerPort}`);
  rmSync(dataDir, { recursive: true, force: true });
  const issuer = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/card-issuer/src/main.ts')], {
    cwd: root,
    stdio: 'ignore',
    env: {
      ...process.env,
      CARD_ISSUER_PORT: String(issuerPort),
      CARD_ISSUER_DATA_DIR: dataDir,
      CARD_ISSUER_ALLOWED_ORIGINS: `http://127.0.0.1:${serverPort}`,
      ...(issuerEnv.CARD_READER === 'pcsc' ? {} : { CARD_ISSUER_DEMO_MOTHER: '10001:Customer#2026' }),
      ...issuerEnv,
    },
  });
  await asSetUp(() => waitFor(`${issuerUrl}/reader/api/status`, issuer, 'the card issuer'));
  // the server is told the issuer's port as `CARD_ISSUER_PORT=… npm start` tells it, not its address: the address the
  // shell pairs with is the one the server derives from the port (issue 25, item 4); callers use ports other than 18085
  const server = await startSecondServer(serverPort, { MJ_SYSTEM: '21', CARD_ISSUER_PORT: String(issuerPort), CARD_ISSUER_URL: '', IMAGE_CODE: 'off', ...serverEnv });
  const panel = async (action: string, body: unknown = {}) => {
    const reply = await fetch(`${issuerUrl}/reader/api/${action}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!reply.ok) throw new Error(`reader ${action}: HTTP ${reply.status} ${await reply.text()}`);
  };
  return {
    server,
    issuerUrl,
    reader: {
      place: (fixedNo) => panel('place', { fixedNo }),
      remove: () => panel('remove'),
      failNext: (op, code) => panel('fail', { op, code }),
    },
    stop: async () => {
      await server.stop();
      await asSetUp(
        () =>
          new Promise<void>((resolve) => {
            if (issuer.exitCode !== null) return resolve();
            issuer.once('exit', () => resolve());
            issuer.kill('SIGTERM');
          }),
      );
    },
  };
}
