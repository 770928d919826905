import Fastify from 'fastify';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { codes } from '@campus/contracts';
import type { IssuerConfig } from './config.ts';
import { IssuerSession } from './card-checks.ts';
import { DeviceIdentity } from './device-identity.ts';
import { IssuerError, issuerErrorHandler } from './http/envelope.ts';
import { registerOriginGuard } from './http/origin-guard.ts';
import { Pairings } from './pairings.ts';
import { ReaderLock } from './reader-lock.ts';
import type { CardReader } from './readers/card-reader.ts';
import { registerCardRoutes } from './routes/card-routes.ts';

export interface BuildIssuerOptions {
  config: IssuerConfig;
  reader: CardReader;
  readerName: string;
  logger?: FastifyServerOptions['logger'];
  fetch?: typeof fetch;
}

/** Logs without bodies (card images), headers (tokens) or query strings. */
export const issuerLoggerOptions = {
  level: 'info',
  serializers: {
    req(req: { method?: string; url?: string }) {
      return { method: req.method, url: (req.url ?? '').split('?')[0] };
    },
    res(res: { statusCode?: number }) {
      return { statusCode: res.statusCode };
    },
  },
};

/** The card issuer (docs/cards.md): every call of spec §7's local issuer, not listening yet. */
export async function buildIssuer(options: BuildIssuerOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: 16 * 1024,
    ajv: { customOptions: { coerceTypes: false, allErrors: false } },
  });
  app.setErrorHandler(issuerErrorHandler);
  app.setNotFoundHandler(() => {
    throw new IssuerError(codes.notFound, 404);
  });
  // the port is known once listening (0 in tests): the guard reads it then
  registerOriginGuard(app, {
    port: () => {
      const address = app.server.address();
      return typeof address === 'object' && address ? address.port : config.port;
    },
    allowedOrigins: config.allowedOrigins,
  });
  registerCardRoutes(app, {
    reader: options.reader,
    session: new IssuerSession(),
    identity: new DeviceIdentity(config.dataDir),
    pairings: new Pairings(),
    lock: new ReaderLock(),
    allowedOrigins: config.allowedOrigins,
    readerName: options.readerName,
    fetch: options.fetch ?? fetch,
  });
  app.addHook('onClose', async () => options.reader.close());
  await app.ready();
  return app;
}
