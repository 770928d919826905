import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { shellVersion } from '@campus/contracts';
import type { CardReader } from '../readers/card-reader.ts';

export interface HealthOptions {
  reader: CardReader;
  /** virtual (the demo's reader) or pcsc (a real reader through the PC/SC service). */
  readerKind: 'virtual' | 'pcsc';
}

/**
 * GET /healthz for a probe on this PC (curl http://127.0.0.1:18085/healthz): 200 while the issuer answers, with the
 * reader's state: `ready` (connected), `disconnected` (no reader), or `unavailable` (the driver failed: pcscd not
 * running). The origin guard applies as to every route: a caller on this PC without an Origin passes.
 */
export function registerHealthRoute(app: FastifyInstance, options: HealthOptions): void {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['device'],
        summary: 'Health: 200 {status: ok, reader: {state, kind, name}, version} while the issuer answers',
        response: {
          200: Type.Object({
            status: Type.String(),
            reader: Type.Object({ state: Type.String(), kind: Type.String(), name: Type.String(), card: Type.Boolean() }),
            version: Type.String(),
          }),
        },
      },
    },
    async () => {
      let reader = { state: 'unavailable', kind: options.readerKind, name: '', card: false };
      try {
        const status = await options.reader.status();
        reader = { state: status.connected ? 'ready' : 'disconnected', kind: options.readerKind, name: status.readerName, card: status.card !== null };
      } catch {
        // the driver cannot be asked (no PC/SC service): the issuer itself still answers
      }
      return { status: 'ok', reader, version: shellVersion };
    },
  );
}
