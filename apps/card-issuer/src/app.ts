import Fastify from 'fastify';
import swagger from '@fastify/swagger';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { codes } from '@campus/contracts';
import type { IssuerConfig } from './config.ts';
import { IssuerSession } from './card-checks.ts';
import { DeviceIdentity, platformKeySealer } from './device-identity.ts';
import { IssuerError, issuerErrorHandler } from './http/envelope.ts';
import { describeIssuerRoute, issuerOpenApi } from './http/openapi.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { ownOrigins, registerOriginGuard } from './http/origin-guard.ts';
import { registerHealthRoute } from './routes/health-route.ts';
import { VirtualReader } from './readers/virtual-reader.ts';
import { Pairings } from './pairings.ts';
import { detectPcLanguage } from './pc-language.ts';
import type { PcLanguage } from './pc-language.ts';
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
  /** The PC's language for what the issuer logs (main.ts picks it once at start); asked here when not given. */
  language?: PcLanguage;
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

/**
 * The UI's own scripts, styles and icons (data: URLs), the description from /docs/json; no site may frame it. The
 * hash is the one <style> the UI writes itself (the colours of its small logo).
 */
const docsPagePolicy =
  "default-src 'self'; img-src 'self' data:; object-src 'none'; script-src 'self'; script-src-attr 'none'; style-src 'self' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * The API description page /docs and its /docs/json, never framed: the browser UI needs its package's files, which
 * the self-contained download leaves out, so the download serves /docs/json only.
 */
async function registerDocsPage(app: FastifyInstance): Promise<void> {
  const ui = await import('@fastify/swagger-ui').catch(() => null);
  if (!ui) {
    app.get('/docs/json', { schema: { hide: true } }, async () => app.swagger());
    return;
  }
  await app.register(ui.default, { routePrefix: '/docs', uiConfig: { validatorUrl: null }, staticCSP: docsPagePolicy });
}

/** The card issuer (docs/cards.md): every call of spec §7's local issuer, not listening yet. */
export async function buildIssuer(options: BuildIssuerOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: 16 * 1024,
    ajv: { customOptions: { coerceTypes: false, allErrors: false } },
  });
  app.setErrorHandler(issuerErrorHandler);
  registerSecurityHeaders(app);
  // the description is always built (the tests lint it); only CARD_ISSUER_DOCS serves it
  await app.register(swagger, { openapi: issuerOpenApi, transform: describeIssuerRoute });
  if (config.docs) await registerDocsPage(app);
  app.setNotFoundHandler(() => {
    throw new IssuerError(codes.notFound, { status: 404 });
  });
  // the port is known once listening (0 in tests): the guard reads it then
  const port = () => {
    const address = app.server.address();
    return typeof address === 'object' && address ? address.port : config.port;
  };
  registerOriginGuard(app, { port, allowedOrigins: config.allowedOrigins });
  const panelOrigins = () => ownOrigins(port());
  const lock = new ReaderLock();
  if (options.reader instanceof VirtualReader) registerVirtualPanelRoutes(app, options.reader, panelOrigins);
  else if (listsReaders(options.reader)) registerPcscPanelRoutes(app, options.reader, panelOrigins, { wantedReader: config.readerName, lock });
  registerHealthRoute(app, { reader: options.reader, readerKind: options.reader instanceof VirtualReader ? 'virtual' : 'pcsc' });
  const language = options.language ?? (await detectPcLanguage());
  const identity = new DeviceIdentity(config.dataDir, { sealer: await platformKeySealer(), notify: (message) => app.log.warn(message[language]) });
  registerCardRoutes(app, {
    reader: options.reader,
    session: new IssuerSession(),
    identity,
    pairings: new Pairings(),
    lock,
    allowedOrigins: config.allowedOrigins,
    readerName: options.readerName,
    fetch: options.fetch ?? fetch,
  });
  app.addHook('onClose', async () => options.reader.close());
  await app.ready();
  return app;
}
