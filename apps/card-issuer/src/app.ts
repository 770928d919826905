import Fastify from 'fastify';
import swagger from '@fastify/swagger';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { codes } from '@campus/contracts';
import type { IssuerConfig } from './config.ts';
import { IssuerSession } from './card-checks.ts';
import { DeviceIdentity } from './device-identity.ts';
import { IssuerError, issuerErrorHandler } from './http/envelope.ts';
import { ownOrigins, registerOriginGuard } from './http/origin-guard.ts';
import { VirtualReader } from './readers/virtual-reader.ts';
import { Pairings } from './pairings.ts';
import { ReaderLock } from './reader-lock.ts';
import type { CardReader } from './readers/card-reader.ts';
import { registerCardRoutes } from './routes/card-routes.ts';
import { listsReaders, registerPcscPanelRoutes } from './routes/pcsc-panel-routes.ts';
import { registerVirtualPanelRoutes } from './routes/virtual-panel-routes.ts';

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
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Campus card issuer',
        version: '1.0.0',
        description: 'The local card-issuer service (spec §7 "Card-device calls", docs/cards.md). Every reply is the envelope {code, msg, data}; send the cardDeviceToken header of a paired session on every card call.',
      },
    },
  });
  // the browser UI needs its package's files: the self-contained download leaves it out and serves the document only
  const ui = await import('@fastify/swagger-ui').catch(() => null);
  if (ui) await app.register(ui.default, { routePrefix: '/docs', uiConfig: { validatorUrl: null } });
  else app.get('/docs/json', { schema: { hide: true } }, async () => app.swagger());
  app.setNotFoundHandler(() => {
    throw new IssuerError(codes.notFound, 404);
  });
  // the port is known once listening (0 in tests): the guard reads it then
  const port = () => {
    const address = app.server.address();
    return typeof address === 'object' && address ? address.port : config.port;
  };
  registerOriginGuard(app, { port, allowedOrigins: config.allowedOrigins });
  const panelOrigins = () => ownOrigins(port());
  if (options.reader instanceof VirtualReader) registerVirtualPanelRoutes(app, options.reader, panelOrigins);
  else if (listsReaders(options.reader)) registerPcscPanelRoutes(app, options.reader, panelOrigins);
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
