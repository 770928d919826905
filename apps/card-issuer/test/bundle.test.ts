import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { shellVersion } from '@campus/contracts';
// @ts-expect-error: a plain build script without type declarations
import { bundleIssuer } from '../../../scripts/build-issuer.mjs';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

describe('npm run build:issuer', () => {
  it('bundles the issuer into one module that runs without node_modules, with its panel and its version', async () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-issuer-bundle-'));
    const app = (await bundleIssuer(path.join(work, 'app'))) as string;
    expect(fs.existsSync(path.join(app, 'panel', 'index.html'))).toBe(true);
    expect(fs.existsSync(path.join(app, 'panel', 'panel-language.js'))).toBe(true);
    const port = await freePort();
    // started from a folder without node_modules, as on the operator's PC
    const child = spawn(process.execPath, [path.join(app, 'card-issuer.mjs')], {
      cwd: work,
      env: { PATH: process.env.PATH, CARD_ISSUER_PORT: String(port), CARD_ISSUER_DATA_DIR: path.join(work, 'data'), CARD_ISSUER_DOCS: 'on' },
      stdio: 'ignore',
    });
    try {
      type Status = { code: number; data: { readerName: string; version: string } };
      const ask = async (): Promise<Status | null> => {
        try {
          return (await (await fetch(`http://127.0.0.1:${port}/reader/api/status`)).json()) as Status;
        } catch {
          return null;
        }
      };
      let status = await ask();
      for (let i = 0; i < 60 && !status; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        status = await ask();
      }
      expect(status?.code).toBe(0);
      expect(status?.data.readerName).toBe('Campus virtual reader');
      // the version of the sources it was built from, as the pairing reply and /healthz name it
      expect(status?.data.version).toBe(shellVersion);
      expect(((await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as { version: string }).version).toBe(shellVersion);
      expect((await fetch(`http://127.0.0.1:${port}/reader`)).status).toBe(200);
      // asked for, the download serves the description without the UI's files
      expect((await fetch(`http://127.0.0.1:${port}/docs/json`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/docs`)).status).toBe(404);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
