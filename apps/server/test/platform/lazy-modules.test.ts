import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/helpers.ts';
import { freePort } from '../support/free-port.ts';
import { startServerProcess } from '../support/server-process.ts';
import type { ServerProcess } from '../support/server-process.ts';

// Issue 48 item 4: what most installations never use is loaded at its first use, not at start
// (docs/architecture.md, Memory). The bench (npm run bench) measures what it saves; this says what is loaded.
const recorder = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'support', 'record-imports.mjs');

/** The packages a server process imported so far, by name (`@scope/name` or `name`). */
function packagesLoaded(importLog: string): Set<string> {
  const text = fs.existsSync(importLog) ? fs.readFileSync(importLog, 'utf8') : '';
  const names = new Set<string>();
  for (const url of text.split('\n')) {
    const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*\/node_modules\/)/.exec(url);
    if (match?.[1]) names.add(match[1]);
  }
  return names;
}

const rarelyUsed = ['ldapts', 'pg', '@fastify/swagger', '@fastify/swagger-ui', 'fast-xml-parser', 'openid-client'];

describe('packages a production server loads on first use', () => {
  const dataDir = tempDir('campus-lazy-');
  let server: ServerProcess | null = null;
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function start(importLog: string): Promise<ServerProcess> {
    const port = await freePort();
    return startServerProcess({
      port,
      dataDir,
      databaseUrl: null,
      env: { NODE_ENV: 'production', IMAGE_CODE: 'on', IMPORT_LOG: importLog },
      nodeArgs: ['--import', recorder],
      startTimeoutMs: 90_000,
    });
  }

  it('starts on SQLite without the LDAP client, the CAS XML parser, the PostgreSQL driver and the API description, and restarts without the canvas until the first image code', async () => {
    const firstLog = path.join(dataDir, 'first-imports.log');
    server = await start(firstLog);
    const first = packagesLoaded(firstLog);
    // the recorder sees the packages the server does load
    expect(first).toContain('fastify');
    expect(first).toContain('kysely');
    for (const name of rarelyUsed) expect(first, name).not.toContain(name);
    await server.stop();

    // a start on a database that has its pictures draws none: no canvas until a sign-in page asks for a code
    const secondLog = path.join(dataDir, 'second-imports.log');
    server = await start(secondLog);
    const second = packagesLoaded(secondLog);
    for (const name of [...rarelyUsed, '@napi-rs/canvas']) expect(second, name).not.toContain(name);

    const reply = await fetch(`${server.url}/auth/api/verifyCode/getimage?verifyKey=lazy-modules-key`, { headers: { language: 'en-US' } });
    expect(reply.status).toBe(200);
    const body = (await reply.json()) as { code: number; data: { image: string } };
    expect(body.code).toBe(0);
    expect(body.data.image).toMatch(/^data:image\/png;base64,/);
    expect(packagesLoaded(secondLog)).toContain('@napi-rs/canvas');
  }, 240_000);
});
