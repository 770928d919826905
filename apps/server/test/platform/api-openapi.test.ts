import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@campus/contracts';
import { call, startServer, tempDir } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';

// The API description (issue 15 item 19): what integrators' tools read at /docs/json.
interface Operation {
  operationId?: string;
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, { type?: string; items?: { format?: string } }> } }> };
  responses: Record<string, { content?: Record<string, unknown> }>;
}
interface Document {
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
}

const cli = path.resolve(import.meta.dirname, '../../../../node_modules/@redocly/cli/bin/cli.js');

describe('the API description', () => {
  let server: TestServer;
  let doc: Document;
  let docFile: string;
  const operation = (method: string, url: string) => doc.paths[url.replace(/:([A-Za-z]+)/g, '{$1}').replace(/\/\*$/, '/{path}')]?.[method.toLowerCase()];

  beforeAll(async () => {
    // a gate deployment: its card routes refuse a request without a token too
    server = await startServer('sqlite', { env: { MJ_SYSTEM: '21' } });
    const reply = await fetch(`${server.url}/docs/json`);
    expect(reply.status).toBe(200);
    const text = await reply.text();
    doc = JSON.parse(text) as Document;
    docFile = path.join(tempDir(), 'openapi.json');
    fs.writeFileSync(docFile, text);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('passes @redocly/cli with its recommended rules: 0 errors', () => {
    let output: string;
    try {
      output = execFileSync(process.execPath, [cli, 'lint', docFile, '--extends=recommended', '--format=json'], {
        encoding: 'utf8',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 120_000,
      });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? '');
    }
    const report = JSON.parse(output.slice(output.indexOf('{'))) as { totals: { errors: number }; problems: { ruleId: string; severity: string; message: string }[] };
    expect(report.problems.filter((problem) => problem.severity === 'error')).toEqual([]);
    expect(report.totals.errors).toBe(0);
  });

  it('names every operation once and declares a server', () => {
    const ids = Object.values(doc.paths).flatMap((methods) => Object.values(methods).map((op) => op.operationId));
    expect(ids.every((id) => typeof id === 'string' && id !== '')).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(operation('POST', apiPaths.adminCardSearch)?.operationId).toBe('postQyApiSystemAdminLoginCardSearch');
    expect(doc.servers?.length).toBeGreaterThan(0);
  });

  it('declares the token scheme exactly on the routes that answer 401 without a token', async () => {
    let walked = 0;
    for (const route of server.app.routeList) {
      if (route.method !== 'GET' && route.method !== 'POST') continue;
      const op = operation(route.method, route.url);
      if (!op) continue; // hidden from the description (/docs itself)
      const url = route.url.replace(/:[A-Za-z]+/g, 'x').replace(/\*/g, 'x');
      const bare = await call(server, route.method, url);
      const required = JSON.stringify(op.security) === JSON.stringify([{ token: [] }]);
      expect(required, `${route.method} ${route.url} answers ${bare.status} without a token`).toBe(bare.status === 401);
      walked += 1;
    }
    expect(walked).toBe(Object.values(doc.paths).flatMap((methods) => Object.keys(methods).filter((m) => m === 'get' || m === 'post')).length);
    // a public call that also takes a token (a master-card swipe trusts the issuer) declares it optional
    expect(operation('POST', apiPaths.getSysKeyData)?.security).toEqual([{}, { token: [] }]);
    expect(operation('POST', apiPaths.webLogin)?.security).toEqual([]);
  });

  it('describes the licence upload as multipart files and the shell page as HTML', async () => {
    const upload = operation('POST', apiPaths.licenceUpload)?.requestBody?.content['multipart/form-data'];
    expect(upload?.schema.properties?.files).toMatchObject({ type: 'array', items: { format: 'binary' } });
    expect(Object.keys(operation('GET', '/')?.responses['200']?.content ?? {})).toEqual(['text/html', 'text/plain']);
  });

  it('serves the shell to a page request without an HTML Accept header; a missing file stays a 404', async () => {
    for (const accept of ['*/*', '']) {
      // the shell's index.html, or the page saying it is not built yet: never the API's 404 envelope
      const page = await fetch(`${server.url}/login`, { headers: accept ? { accept } : {} });
      expect(page.headers.get('content-type'), `Accept: ${accept}`).toMatch(/^text\/(html|plain)/);
    }
    expect((await fetch(`${server.url}/assets/missing-file.js`, { headers: { accept: '*/*' } })).status).toBe(404);
    expect((await fetch(`${server.url}/system/api/System/NoSuchCall`, { headers: { accept: '*/*' } })).status).toBe(404);
  });
});
