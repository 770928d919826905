import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import { makeMotherCard, sm3Hex } from '@campus/card-crypto';
import type { ReaderCode } from '@campus/contracts';
import { codes, readerCodes, shellVersion } from '@campus/contracts';
import { customerNoProblem } from '../customer-number.ts';
import { IssuerError, ok } from '../http/envelope.ts';
import { LocalisedError } from '../localised.ts';
import type { VirtualReader } from '../readers/virtual-reader.ts';
import { registerPanel } from './panel-routes.ts';

const knownCodes = Object.values(readerCodes).filter((c) => c !== 0);

/**
 * The virtual reader's panel API, which the panel and the browser tests use to move cards around: its status, and
 * placing, removing and making cards and setting faults.
 */
export function registerVirtualPanelRoutes(app: FastifyInstance, reader: VirtualReader, ownOrigins: () => Set<string>): void {
  const route = { ...registerPanel(app, ownOrigins), schema: { tags: ['virtual reader'] } };
  const described = (summary: string, schema: object = {}) => ({ ...route, schema: { ...route.schema, summary, ...schema } });
  const FixedNo = Type.String({ pattern: '^[0-9A-Fa-f]{8,20}$' });
  const guarded = <T>(work: () => T): T => {
    try {
      return work();
    } catch (error) {
      if (error instanceof IssuerError) throw error;
      throw new IssuerError(codes.badRequest, { status: 400, detail: error instanceof LocalisedError ? error.localised : error instanceof Error ? error.message : String(error) });
    }
  };

  app.get('/reader/api/status', described('The virtual reader: the card on it, every card it keeps and the faults set (panel only)'), async (request) => {
    const status = await reader.status();
    return ok(request, { driver: 'virtual', version: shellVersion, readerName: status.readerName, card: status.card, cards: reader.list(), faults: reader.faults() });
  });
  app.post('/reader/api/place', described('Places a kept card on the virtual reader (panel only)', { body: Type.Object({ fixedNo: FixedNo }) }), async (request) => {
    guarded(() => reader.place((request.body as { fixedNo: string }).fixedNo));
    return ok(request, null);
  });
  app.post('/reader/api/remove', described('Takes the card off the virtual reader (panel only)'), async (request) => {
    reader.remove();
    return ok(request, null);
  });
  app.post('/reader/api/blank', described('Makes a new blank card, placed on the reader when asked (panel only)', { body: Type.Object({ fixedNo: Type.Optional(FixedNo), place: Type.Optional(Type.Boolean()) }) }), async (request) => {
    const body = request.body as { fixedNo?: string; place?: boolean };
    const fixedNo = guarded(() => reader.addCard(undefined, body.fixedNo));
    if (body.place) reader.place(fixedNo);
    return ok(request, { fixedNo });
  });
  app.post(
    '/reader/api/mother',
    described("Makes a vendor's mother card for a customer number and password (panel only)", { body: Type.Object({ customerNo: Type.String({ maxLength: 16 }), customerPwd: Type.String({ minLength: 1, maxLength: 64 }), fixedNo: Type.Optional(FixedNo), place: Type.Optional(Type.Boolean()) }) }),
    async (request) => {
      const body = request.body as { customerNo: string; customerPwd: string; fixedNo?: string; place?: boolean };
      const problem = customerNoProblem(body.customerNo);
      if (problem) throw new IssuerError(codes.badRequest, { status: 400, detail: problem });
      const fixedNo = guarded(() => reader.addCard(makeMotherCard({ customerNo: body.customerNo, customerPwdDigest: sm3Hex(body.customerPwd) }), body.fixedNo));
      if (body.place) reader.place(fixedNo);
      return ok(request, { fixedNo });
    },
  );
  app.post(
    '/reader/api/fail',
    described('Makes the next reads or writes fail with a reader code (panel only)', {
      body: Type.Object({ op: Type.Union([Type.Literal('read'), Type.Literal('write')]), code: Type.Union(knownCodes.map((c) => Type.Literal(c))), times: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) }),
    }),
    async (request) => {
      const body = request.body as { op: 'read' | 'write'; code: ReaderCode; times?: number };
      reader.failNext(body.op, body.code, body.times ?? 1);
      return ok(request, null);
    },
  );
}
