import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Type } from 'typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { makeMotherCard, sm3Hex } from '@campus/card-crypto';
import type { ReaderCode } from '@campus/contracts';
import { codes, readerCodes } from '@campus/contracts';
import { customerNoProblem } from '../customer-number.ts';
import { IssuerError, ok } from '../http/envelope.ts';
import type { VirtualReader } from '../readers/virtual-reader.ts';

// beside the sources (apps/card-issuer/panel) or, in the self-contained download, beside the bundle (app/panel)
const here = path.dirname(fileURLToPath(import.meta.url));
const panelDir = [path.resolve(here, '..', '..', 'panel'), path.join(here, 'panel')].find((dir) => fs.existsSync(path.join(dir, 'index.html'))) ?? path.join(here, 'panel');
const panelFiles: Record<string, { file: string; type: string }> = {
  '/reader': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/reader/panel.js': { file: 'panel.js', type: 'text/javascript; charset=utf-8' },
  '/reader/panel.css': { file: 'panel.css', type: 'text/css; charset=utf-8' },
};
const knownCodes = Object.values(readerCodes).filter((c) => c !== 0);

/**
 * The virtual reader's panel (`/reader`) and the test API it and the browser tests use (`/reader/api/…`): only
 * for the virtual reader, and only for the issuer's own pages or callers on this PC without an Origin (the
 * shell's pages may not move cards around).
 */
export function registerPanelRoutes(app: FastifyInstance, reader: VirtualReader, ownOrigins: () => Set<string>): void {
  for (const [url, { file, type }] of Object.entries(panelFiles)) {
    app.get(url, { schema: { hide: true } }, async (_request, reply) =>
      reply
        .type(type)
        .header('cache-control', 'no-cache')
        .header('content-security-policy', "default-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
        .send(fs.readFileSync(path.join(panelDir, file))),
    );
  }

  const ownPagesOnly = async (request: FastifyRequest) => {
    const origin = request.headers.origin;
    if (origin !== undefined && !ownOrigins().has(origin)) throw new IssuerError(codes.noPermission, 403, 'the reader panel API answers the panel only');
  };
  const route = { onRequest: ownPagesOnly, schema: { tags: ['virtual reader'] } };
  const FixedNo = Type.String({ pattern: '^[0-9A-Fa-f]{8,20}$' });
  const guarded = <T>(work: () => T): T => {
    try {
      return work();
    } catch (error) {
      if (error instanceof IssuerError) throw error;
      throw new IssuerError(codes.badRequest, 400, error instanceof Error ? error.message : String(error));
    }
  };

  app.get('/reader/api/status', route, async (request) => {
    const status = await reader.status();
    return ok(request, { readerName: status.readerName, card: status.card, cards: reader.list(), faults: reader.faults() });
  });
  app.post('/reader/api/place', { ...route, schema: { ...route.schema, body: Type.Object({ fixedNo: FixedNo }) } }, async (request) => {
    guarded(() => reader.place((request.body as { fixedNo: string }).fixedNo));
    return ok(request, null);
  });
  app.post('/reader/api/remove', route, async (request) => {
    reader.remove();
    return ok(request, null);
  });
  app.post('/reader/api/blank', { ...route, schema: { ...route.schema, body: Type.Object({ fixedNo: Type.Optional(FixedNo), place: Type.Optional(Type.Boolean()) }) } }, async (request) => {
    const body = request.body as { fixedNo?: string; place?: boolean };
    const fixedNo = guarded(() => reader.addCard(undefined, body.fixedNo));
    if (body.place) reader.place(fixedNo);
    return ok(request, { fixedNo });
  });
  app.post(
    '/reader/api/mother',
    { ...route, schema: { ...route.schema, body: Type.Object({ customerNo: Type.String({ maxLength: 16 }), customerPwd: Type.String({ minLength: 1, maxLength: 64 }), fixedNo: Type.Optional(FixedNo), place: Type.Optional(Type.Boolean()) }) } },
    async (request) => {
      const body = request.body as { customerNo: string; customerPwd: string; fixedNo?: string; place?: boolean };
      const problem = customerNoProblem(body.customerNo);
      if (problem) throw new IssuerError(codes.badRequest, 400, problem);
      const fixedNo = guarded(() => reader.addCard(makeMotherCard({ customerNo: body.customerNo, customerPwdDigest: sm3Hex(body.customerPwd) }), body.fixedNo));
      if (body.place) reader.place(fixedNo);
      return ok(request, { fixedNo });
    },
  );
  app.post(
    '/reader/api/fail',
    {
      ...route,
      schema: {
        ...route.schema,
        body: Type.Object({ op: Type.Union([Type.Literal('read'), Type.Literal('write')]), code: Type.Union(knownCodes.map((c) => Type.Literal(c))), times: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) }),
      },
    },
    async (request) => {
      const body = request.body as { op: 'read' | 'write'; code: ReaderCode; times?: number };
      reader.failNext(body.op, body.code, body.times ?? 1);
      return ok(request, null);
    },
  );
}
