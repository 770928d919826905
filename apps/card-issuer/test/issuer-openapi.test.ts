import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardIssuerPaths, readerCodes } from '@campus/contracts';
import { buildIssuer } from '../src/app.ts';
import { loadIssuerConfig } from '../src/config.ts';
import { VirtualReader, virtualReaderName } from '../src/readers/virtual-reader.ts';

// The issuer's API description (issue 25 item 5), linted as the server's is (apps/server/test/platform/api-openapi.test.ts).
// It is built from the app itself: the /docs page that serves it is off by default.
interface Operation {
  operationId?: string;
  summary?: string;
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string }[];
  responses: Record<string, unknown>;
}
interface Document {
  servers?: { url: string }[];
  components?: { securitySchemes?: Record<string, { type: string; in: string; name: string }> };
  paths: Record<string, Record<string, Operation>>;
}

const cli = path.resolve(import.meta.dirname, '../../../node_modules/@redocly/cli/bin/cli.js');

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string }[];
}

function lint(doc: Document): LintReport {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'campus-issuer-openapi-')), 'openapi.json');
  fs.writeFileSync(file, JSON.stringify(doc));
  let output: string;
  try {
    output = execFileSync(process.execPath, [cli, 'lint', file, '--extends=recommended', '--format=json'], {
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    });
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? '');
  }
  return JSON.parse(output.slice(output.indexOf('{'))) as LintReport;
}

describe('the card issuer: its API description', () => {
  let app: FastifyInstance;
  let url: string;
  let doc: Document;
  const operations = () => Object.entries(doc.paths).flatMap(([route, methods]) => Object.entries(methods).map(([method, op]) => ({ route, method, op })));

  beforeAll(async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-issuer-openapi-'));
    app = await buildIssuer({ config: loadIssuerConfig({ CARD_ISSUER_DATA_DIR: dataDir }), reader: new VirtualReader(dataDir), readerName: virtualReaderName });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    doc = app.swagger() as unknown as Document;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('passes @redocly/cli with its recommended rules: 0 errors, and no warning but the licence without a URL', () => {
    const report = lint(doc);
    expect(report.problems.filter((problem) => problem.severity === 'error')).toEqual([]);
    expect(report.totals.errors).toBe(0);
    expect(report.problems.map((problem) => problem.ruleId)).toEqual(['info-license-strict']);
  });

  it('describes every call of spec §7 and the panel, each with a summary and its own operationId, and declares a server', () => {
    for (const call of Object.values(cardIssuerPaths)) expect(doc.paths[call], call).toBeDefined();
    expect(doc.paths['/reader/api/status']?.get?.summary).toMatch(/panel only/);
    const ids = operations().map(({ op }) => op.operationId);
    expect(ids.every((id) => typeof id === 'string' && id !== '')).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths[cardIssuerPaths.addIdentity]?.post?.operationId).toBe('postApiAuthDeviceAddIdentity');
    expect(operations().every(({ op }) => typeof op.summary === 'string' && op.summary !== '' && op.responses['4XX'] !== undefined)).toBe(true);
    expect(doc.servers?.length).toBeGreaterThan(0);
  });

  it('declares the cardDeviceToken scheme exactly on the calls that answer 990209 without a paired token', async () => {
    expect(doc.components?.securitySchemes?.cardDeviceToken).toMatchObject({ type: 'apiKey', in: 'header', name: 'carddevicetoken' });
    let walked = 0;
    for (const { route, method, op } of operations()) {
      const reply = await fetch(`${url}${route}`, { method: method.toUpperCase(), headers: method === 'post' ? { 'content-type': 'application/json' } : {}, body: method === 'post' ? '{}' : undefined });
      const { code } = (await reply.json()) as { code: number };
      const required = JSON.stringify(op.security) === JSON.stringify([{ cardDeviceToken: [] }]);
      expect(required, `${method} ${route} answers ${code} without a token`).toBe(code === readerCodes.notPaired);
      if (!required) expect(op.security, `${method} ${route}`).toEqual([]);
      expect(op.parameters?.some((parameter) => parameter.in === 'header' && parameter.name === 'carddevicetoken') ?? false, `${method} ${route}`).toBe(false);
      walked += 1;
    }
    expect(walked).toBeGreaterThan(Object.keys(cardIssuerPaths).length);
  });

  it('the PC/SC driver’s description passes too', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-issuer-openapi-'));
    const pcsc = { view: () => [], status: async () => ({ connected: false, readerName: '', card: null }), read: async () => Promise.reject(new Error('no card')), write: async () => {}, close: async () => {} };
    const other = await buildIssuer({ config: loadIssuerConfig({ CARD_ISSUER_DATA_DIR: dataDir, CARD_READER: 'pcsc' }), reader: pcsc, readerName: 'PC/SC reader' });
    try {
      const report = lint(other.swagger() as unknown as Document);
      expect(report.problems.filter((problem) => problem.severity === 'error')).toEqual([]);
      expect(report.problems.map((problem) => problem.ruleId)).toEqual(['info-license-strict']);
    } finally {
      await other.close();
    }
  });
});
