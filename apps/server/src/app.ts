import fs from 'node:fs';
import path from 'node:path';
import Fastify, { LogController } from 'fastify';
import type { FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { Type } from 'typebox';
import { codes, shellVersion, toLanguage } from '@campus/contracts';
import type { LanguageCode } from '@campus/contracts';
import type { Config } from './config.ts';
import { describeDatabase } from './config.ts';
import { registerHealthRoutes } from './http/health-routes.ts';
import { registerMetrics } from './http/metrics-route.ts';
import { setScrapeSources } from './lib/metrics.ts';
import { StorageWatch } from './lib/storage-watch.ts';
import type { DatabaseHandle } from './db/database.ts';
import { isApiPath } from './http/api-prefixes.ts';
import { makeRequireSession } from './http/auth-hook.ts';
import { makeRuleGate } from './http/route-rules.ts';
import { AppError, sendFailure } from './http/envelope.ts';
import { errorHandler } from './http/errors.ts';
import { registerJsonCompression } from './http/json-compression.ts';
import { cardIssuerOrigins, registerSecurityHeaders, securityHeadersFor } from './http/security-headers.ts';
import type { App, Clock, RegisteredRoute } from './http/types.ts';
import type { LdapClientFactory } from './modules/auth/ldap-directory.ts';
import { registerAccountRoutes } from './modules/account/account-routes.ts';
import { registerAuthRoutes } from './modules/auth/auth-routes.ts';
import { registerSettingsRoutes } from './modules/auth/settings-routes.ts';
import { registerBackupLogRoutes } from './modules/backup-log/backup-log-routes.ts';
import { registerEnterpriseRoutes } from './modules/enterprise/enterprise-routes.ts';
import { registerLicenceRoutes } from './modules/licence/licence-routes.ts';
import { registerMenuRoutes } from './modules/menu/menu-routes.ts';
import { enterpriseDataSystem } from './modules/menu/menu-service.ts';
import { registerOperationLogRoutes } from './modules/operation-log/operation-log-routes.ts';
import { registerOssRoutes } from './modules/oss/oss-routes.ts';
import { entryOrigins } from './modules/sub-app/sub-app-registry.ts';
import { registerSubAppRoutes } from './modules/sub-app/sub-app-routes.ts';
import { registerToolsRoutes } from './modules/tools/tools-routes.ts';
import { registerVersionRoutes } from './modules/version/version-routes.ts';
import { registerAdminLoginCardRoutes } from './modules/admin-login-card/admin-login-card-routes.ts';
import { makeRequireMasterCard } from './modules/card-primitives/card-schemas.ts';
import { registerGmAccountRoutes } from './modules/card-management/gm-account-routes.ts';
import { describeRoute } from './http/openapi.ts';
import { makeRequireCardManager } from './modules/card-primitives/card-manager-hook.ts';
import { registerCardStateRoutes } from './modules/card-management/card-state-routes.ts';
import { registerCardTableRoutes } from './modules/card-management/card-table-routes.ts';
import { registerCardLifecycleRoutes } from './modules/card-management/card-lifecycle-routes.ts';
import { registerTrustedIssuerRoutes } from './modules/card-management/trusted-issuer-routes.ts';
import { registerSystemKeyCardRoutes } from './modules/system-key-card/system-key-card-routes.ts';
import { createServices, isDemoInstallation } from './services.ts';
import type { ServiceOptions } from './services.ts';
import { publicOrigin } from './http/public-origin.ts';
import { registerIdentityProviderRoutes } from './modules/sso/identity-provider-routes.ts';
import { registerSsoRoutes } from './modules/sso/sso-routes.ts';
import { logoIds } from './seed/seed.ts';

export interface BuildAppOptions {
  db: DatabaseHandle;
  config: Config;
  /** Fixes captcha answers (tests). */
  captchaText?: () => string;
  /** A fake clock (tests). */
  now?: Clock;
  /** Replaces the ldapts client (tests watch binds through it). */
  ldapClientFactory?: LdapClientFactory;
  /** Replaces the protocol clients of external sign-in (tests play the identity provider). */
  ssoClients?: ServiceOptions['ssoClients'];
  /** Pino options, or false for none (the default). */
  logger?: FastifyServerOptions['logger'];
}

/**
 * Request logging without secrets: a request is logged as its method, path and client address only: no headers
 * (token), no bodies, no query strings. (A redaction of header paths would find nothing to remove: pino redacts
 * what the serializer made, and cost every line a tenth of its time.)
 */
export const safeLoggerOptions = {
  serializers: {
    req(req: { method?: string; url?: string; ip?: string }) {
      const url = req.url ?? '';
      const query = url.indexOf('?');
      return { method: req.method, url: query === -1 ? url : url.slice(0, query), remoteAddress: req.ip };
    },
    res(res: { statusCode?: number }) {
      return { statusCode: res.statusCode };
    },
  },
};

/** One log line a request, when it is answered, instead of Fastify's two (half the logging under load). */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

const notBuiltPage =
  'The shell is not built yet.\n\nRun `npm run build` in the repository root, then reload this page.\nThe API is running: see /docs for the OpenAPI description and /healthz for health.\n';

/** The language of the `language` header (zh-CN when absent or unknown). */
function languageOf(request: FastifyRequest): LanguageCode {
  const header = request.headers.language;
  return toLanguage(Array.isArray(header) ? header[0] : header);
}

function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}

/** Builds the server (every route registered, not listening yet). */
export async function buildApp(options: BuildAppOptions): Promise<App> {
  const { config } = options;
  const services = createServices(options.db, config, {
    trustTestKeys: config.licenceTrustFile === null && (await isDemoInstallation(options.db)),
    now: options.now,
    captchaText: options.captchaText,
    ldapClientFactory: options.ldapClientFactory,
    ssoClients: options.ssoClients,
  });

  const app = Fastify({
    logger: options.logger === undefined || options.logger === false ? false : { level: config.logLevel, ...(options.logger === true ? {} : options.logger) },
    // a hop count as the function Fastify makes of it (its typings take no number): trust the n nearest hops
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    bodyLimit: 1024 * 1024,
    logController: new OneLinePerRequest(),
    ajv: { customOptions: { coerceTypes: false, allErrors: false } },
    // a URL that cannot be decoded (`/subapps/%zz`) is answered before any route: still an envelope
    frameworkErrors: (_error, request, reply) => {
      request.lang = languageOf(request);
      sendFailure(request, reply, new AppError(codes.badRequest, { status: 400 }));
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // every route as registered (method, URL pattern, schema): the route-rules and fuzz tests walk them all
  const routeList: RegisteredRoute[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD') routeList.push({ method, url: route.url, schema: route.schema });
  });
  app.decorate('routeList', routeList);
  app.decorateRequest('lang', 'zh-CN');
  app.decorateRequest('session', null);
  app.addHook('onRequest', (request, _reply, done) => {
    request.lang = languageOf(request);
    done();
  });
  app.setErrorHandler(errorHandler);

  // the sub-apps of SUBAPP_ENTRIES and the registered ones (their entries' and script origins) may be fetched
  const configuredOrigins = entryOrigins(config.subAppEntries);
  let registeredOrigins: readonly string[] | null = null;
  let subAppOriginList = configuredOrigins;
  const withConfigured = (registered: readonly string[]) => {
    if (registered !== registeredOrigins) {
      registeredOrigins = registered;
      subAppOriginList = [...new Set([...configuredOrigins, ...registered])];
    }
    return subAppOriginList;
  };
  const subAppOrigins = {
    now: () => {
      const registered = services.subAppRegistrations.originsNow();
      return registered === null ? null : withConfigured(registered);
    },
    later: async () => withConfigured(await services.subAppRegistrations.origins()),
  };
  const issuerOrigins = cardIssuerOrigins(config.cardIssuerUrl);
  const devBrowserHeaders = config.subAppDevOverrides.length > 0 ? securityHeadersFor(subAppOrigins, issuerOrigins, config.subAppDevOverrides) : null;
  registerSecurityHeaders(app, securityHeadersFor(subAppOrigins, issuerOrigins), devBrowserHeaders);
  registerJsonCompression(app);
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => ({ statusCode: 429, error: 'Too Many Requests', message: `Rate limit exceeded, retry in ${context.after}` }),
  });
  // The API description is for developers and integrators: never served by a production start, which therefore never
  // loads its packages (a YAML parser, the UI's files; docs/architecture.md, Memory).
  if (!config.isProduction) {
    const [{ default: swagger }, { default: swaggerUi }] = await Promise.all([import('@fastify/swagger'), import('@fastify/swagger-ui')]);
    await app.register(swagger, {
      openapi: {
        openapi: '3.0.3',
        info: {
          title: 'Campus shell server',
          version: shellVersion,
          description: 'Every reply is the envelope {code, msg, data, recordCount?}; code 0 is success. Send the session token in the `token` header.',
          license: { name: 'Proprietary: licensed to the installation it ships with' },
        },
        servers: [{ url: '/', description: 'This server' }],
        components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'token', description: 'The session token a sign-in answers (or the master-card token where the card calls say so)' } } },
      },
      transform: describeRoute,
    });
    await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { validatorUrl: null } });
  }

  const requireSession = makeRequireSession(
    (token) => services.sessions.resolve(token),
    makeRuleGate({ licenceIsNormal: (session) => services.licence.isNormal(session), isSystemAdmin: (userId) => services.account.isSystemAdmin(userId) }),
  );

  const storageWatch = new StorageWatch(
    config.dataDir,
    (where) => app.log.error({ where }, `storage full at ${where}: writes answer 507 storageFull until space is freed`),
    config.databaseUrl === null ? config.sqliteFile : describeDatabase(config),
  );
  app.decorate('storageWatch', storageWatch);
  registerHealthRoutes(app, { db: options.db, storage: storageWatch, databaseWhere: describeDatabase(config), detailAllow: config.metricsAllow });
  registerMetrics(app, { enabled: config.metrics, allow: config.metricsAllow });
  setScrapeSources({
    activeSessions: () => services.sessions.countActive(),
    newestBackupTime: () => services.backupLogs.newestBackupTime(),
    pool: () => options.db.poolStats(),
  });

  registerAuthRoutes(app, {
    login: services.login,
    captcha: services.captcha,
    account: services.account,
    requireSession,
    rateLimitPerMinute: config.rateLimitPerMinute,
    providerLogoutUrl: (session, request) => services.sso.providerLogoutUrl(session.tokenHash, publicOrigin(request, config.publicUrl)),
  });
  registerSettingsRoutes(app, config, services.account, (tenantCode, language) => services.identityProviders.buttons(tenantCode, language));
  await registerSsoRoutes(app, { sso: services.sso, publicUrl: config.publicUrl, rateLimitPerMinute: config.rateLimitPerMinute });
  registerIdentityProviderRoutes(app, { store: services.identityProviders, sso: services.sso, account: services.account, logs: services.logs, requireSession, publicUrl: config.publicUrl });
  registerAccountRoutes(app, {
    account: services.account,
    passwordChange: services.passwordChange,
    seal: services.seal,
    requireSession,
    rateLimitPerMinute: config.rateLimitPerMinute,
    isGate: services.gm.isGate,
  });
  registerMenuRoutes(app, { menu: services.menu, account: services.account, mjSystem: config.mjSystem, gateKeyId: () => services.gm.keyId(), requireSession });
  registerLicenceRoutes(app, {
    licence: services.licence,
    account: services.account,
    menu: services.menu,
    operatorPassword: { account: services.account, lockout: services.lockout, logs: services.logs },
    requireSession,
    productImageIds: { logo: logoIds.system, loginBg: logoIds.loginBg },
  });
  registerOperationLogRoutes(app, {
    logs: services.logs,
    isSystemAdmin: (userId) => services.account.isSystemAdmin(userId),
    holdsEnterprisePermission: (session, funcId) => services.menu.holds(session, enterpriseDataSystem, funcId),
    requireSession,
  });
  registerEnterpriseRoutes(app, { enterprise: services.enterprise, menu: services.menu, requireSession });
  registerVersionRoutes(app, { versions: services.versions, requireSession });
  registerSubAppRoutes(app, { files: services.subAppFiles, registry: services.subApps, registrations: services.subAppRegistrations, account: services.account, requireSession, devOverrideOrigins: config.subAppDevOverrides });
  registerBackupLogRoutes(app, { backupLogs: services.backupLogs, privateDeployment: config.privateDeployment, requireSession });
  const requireMasterCard = makeRequireMasterCard((token) => services.gm.masterTokenLive(token));
  const requireCardManager = makeRequireCardManager({
    masterTokenLive: (token) => services.gm.masterTokenLive(token),
    requireSession,
    isSystemAdmin: (userId) => services.account.isSystemAdmin(userId),
    tenantFor: async (code) => (await services.account.tenantOrDefault(code))?.code ?? null,
  });
  const isGate = services.gm.isGate;
  registerGmAccountRoutes(app, { gm: services.gm, systemKeyCards: services.systemKeyCards, keyCardTrust: services.keyCardTrust, requireMasterCard, requireCardManager, rateLimitPerMinute: config.rateLimitPerMinute });
  registerSystemKeyCardRoutes(app, { systemKeyCards: services.systemKeyCards, isGate, requireCardManager });
  registerTrustedIssuerRoutes(app, { issuers: services.gm.issuers, isGate, requireCardManager });
  registerAdminLoginCardRoutes(app, { cards: services.adminCards, account: services.account, logs: services.logs, isGate, requireMasterCard, requireSession, rateLimitPerMinute: config.rateLimitPerMinute });
  registerCardStateRoutes(app, { adminCards: services.adminCards, systemKeyCards: services.systemKeyCards, isGate, requireCardManager });
  registerCardTableRoutes(app, { adminCards: services.adminCards, systemKeyCards: services.systemKeyCards, isGate, requireCardManager });
  registerCardLifecycleRoutes(app, { adminCards: services.adminCardLifecycle, keyCards: services.keyCardLifecycle, isGate, requireCardManager });
  registerOssRoutes(app, services.oss);
  registerToolsRoutes(app, services.tools);

  // The built shell, with an SPA fallback to index.html for non-API paths that accept HTML.
  const shellDist = config.shellDist;
  const indexFile = path.join(shellDist, 'index.html');
  const shellStatic = fs.existsSync(shellDist);
  if (shellStatic) {
    await app.register(fastifyStatic, {
      root: shellDist,
      prefix: '/',
      index: false,
      // the build writes .br and .gz copies (scripts/compress-assets.mjs): sent by Accept-Encoding, with Vary
      preCompressed: true,
      cacheControl: false,
      setHeaders(res, sentPath) {
        // the rule of the file itself, also when its compressed copy is what is sent
        const filePath = sentPath.replace(/\.(br|gz)$/, '');
        res.setHeader('Vary', 'Accept-Encoding');
        if (filePath.endsWith('.html')) res.setHeader('Cache-Control', 'no-cache');
        else if (filePath.includes(`${path.sep}assets${path.sep}`)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      },
    });
  }

  /** index.html of the shell, or a short text page when the shell is not built. */
  const serveShell = (reply: FastifyReply, urlPath: string) => {
    if (fs.existsSync(indexFile)) {
      // through @fastify/static: its compressed copy when the browser takes one (setHeaders adds no-cache);
      // a shell built after this server started has no static route yet: sent as it is
      if (shellStatic) return reply.code(200).sendFile('index.html');
      return reply.code(200).type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(fs.createReadStream(indexFile));
    }
    return reply.code(urlPath === '/' ? 200 : 404).type('text/plain; charset=utf-8').send(notBuiltPage);
  };

  app.get(
    '/',
    {
      schema: {
        tags: ['shell'],
        summary: "The shell's index.html (or a note that it is not built); every other page path of the shell answers the same",
        produces: ['text/html', 'text/plain'],
        response: { 200: Type.String({ description: 'The HTML page' }) },
      },
    },
    async (_request, reply) => serveShell(reply, '/'),
  );

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const urlPath = request.url.split('?')[0] ?? '/';
    const isRead = request.method === 'GET' || request.method === 'HEAD';
    const accept = request.headers.accept ?? '';
    // a page of the shell (no file extension) is served to any client that takes HTML, curl's */* included;
    // a missing asset or file stays a 404
    const isPage = !/\.[A-Za-z0-9]+$/.test(urlPath);
    const takesHtml = accept.includes('text/html') || (isPage && (accept === '' || accept.includes('*/*')));
    if (isRead && !isApiPath(urlPath) && takesHtml) return serveShell(reply, urlPath);
    return sendFailure(request, reply, new AppError(codes.notFound, { status: 404 }));
  });

  await app.ready();
  return app;
}
