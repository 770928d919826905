import fs from 'node:fs';
import path from 'node:path';
import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { apiPaths, codes, reportVersionFileName, subAppsPathPrefix } from '@campus/contracts';
import { AppNoSchema, FunctionCodes, ManifestSchema, RegistrationSchema } from './sub-app-schemas.ts';
import { compressedCopy } from '../../http/compressed-files.ts';
import type { App } from '../../http/types.ts';
import { AppError, envelope, failureReplies, ok, sendFailure, tokenHeaders } from '../../http/envelope.ts';
import type { SubAppFile, SubAppFiles } from './sub-app-files.ts';
import type { SubAppRegistry } from './sub-app-registry.ts';
import type { SubAppActor, SubAppRegistrations } from './sub-app-registrations.ts';
import type { AccountService } from '../account/account-service.ts';
import { sessionOf } from '../../http/auth-hook.ts';
import { appNoRefusal } from './sub-app-manifest.ts';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
};

/**
 * index.html and the report-version file are read anew each time (a new build shows at once); the other
 * files are not content-hashed (a UMD bundle keeps its name across builds), so they are kept only briefly.
 */
function cacheControl(file: SubAppFile): string {
  const name = path.basename(file.path);
  return name === 'index.html' || name === reportVersionFileName ? 'no-cache' : 'public, max-age=60';
}

function entityTag(file: SubAppFile): string {
  return `W/"${file.size.toString(16)}-${Math.floor(file.mtimeMs).toString(16)}"`;
}

async function sendFile(request: FastifyRequest, reply: FastifyReply, file: SubAppFile): Promise<FastifyReply> {
  const etag = entityTag(file);
  reply
    .header('Cache-Control', cacheControl(file))
    .header('ETag', etag)
    .header('Last-Modified', new Date(file.mtimeMs).toUTCString());
  const copy = await compressedCopy(request, file.path);
  if (copy !== null) reply.header('Vary', 'Accept-Encoding');
  const known = (request.headers['if-none-match'] ?? '').split(',').map((tag) => tag.trim());
  if (known.includes(etag)) return reply.code(304).send();
  reply.type(contentTypes[path.extname(file.path).toLowerCase()] ?? 'application/octet-stream');
  if (copy !== null && copy !== 'none') {
    return reply.header('Content-Encoding', copy.encoding).header('Content-Length', String(copy.size)).send(fs.createReadStream(copy.path));
  }
  return reply.header('Content-Length', String(file.size)).send(fs.createReadStream(file.path));
}

const SubAppEntrySchema = Type.Object({
  appNo: Type.String(),
  frontRoutingAddr: Type.String({ description: "The system's base path without slashes; '' for tc" }),
  folder: Type.String({ description: 'Entry folder: frontRoutingAddr, or appNo when that is empty' }),
  entry: Type.String({ description: "URL of the entry's folder (ends in '/'): /subapps/<folder>/ unless SUBAPP_ENTRIES names another" }),
  installed: Type.Boolean({ description: "False when the entry is this server's /subapps/<folder>/ and no build of it is there; true for an entry on another server" }),
});

export interface SubAppRouteDeps {
  files: SubAppFiles;
  registry: SubAppRegistry;
  registrations: SubAppRegistrations;
  account: AccountService;
  requireSession: onRequestHookHandler;
  /** SUBAPP_DEV_OVERRIDES: the dev-server origin patterns admitted, empty when off. */
  devOverrideOrigins: readonly string[];
}

export function registerSubAppRoutes(app: App, deps: SubAppRouteDeps) {
  app.get(
    apiPaths.subAppRegistry,
    {
      onRequest: deps.requireSession,
      schema: {
        tags: ['sub-apps'],
        summary: "Every system's sub-application entry on this deployment, in catalogue order",
        headers: tokenHeaders,
        response: { 200: envelope(Type.Array(SubAppEntrySchema)), ...failureReplies },
      },
    },
    async (request) => ok(request, await deps.registry.entries(sessionOf(request).stamps?.catalogue)),
  );

  // the shell drops a developer's stored override unless its address matches one of these; the content policy
  // admits the same origins and no others (http/security-headers.ts), so a shell told otherwise could not load it
  app.get(
    apiPaths.subAppDevOverrides,
    {
      onRequest: deps.requireSession,
      schema: {
        tags: ['sub-apps'],
        summary: "Where a developer's browser may load one sub-app from instead of its build (SUBAPP_DEV_OVERRIDES; none by default)",
        headers: tokenHeaders,
        response: {
          200: envelope(Type.Object({ origins: Type.Array(Type.String({ description: "scheme://host[:port], the port may be '*'" })) })),
          ...failureReplies,
        },
      },
    },
    async (request) => ok(request, { origins: [...deps.devOverrideOrigins] }),
  );

  // sub-systems of other teams (docs/installation-and-tenants.md): what every tenant is served (register, replace,
  // remove) only an installation administrator changes over HTTP, the operator with `npm run subapp` on the server;
  // a tenant's system administrator grants and revokes within his tenant (the service holds that rule)
  const requireAdmin = async (request: FastifyRequest) => {
    if (!(await deps.account.isSystemAdmin(sessionOf(request).userId))) throw new AppError(codes.noPermission, { status: 403 });
  };
  const requireInstallationAdmin = async (request: FastifyRequest) => {
    const { userId } = sessionOf(request);
    if (!(await deps.account.isSystemAdmin(userId))) throw new AppError(codes.noPermission, { status: 403 });
    if (!(await deps.account.isInstallationAdmin(userId))) throw new AppError(codes.installationAdminRequired, { status: 403 });
  };
  const adminOnly = { onRequest: [deps.requireSession, requireAdmin] };
  const installationAdminOnly = { onRequest: [deps.requireSession, requireInstallationAdmin] };
  const actorOf = async (request: FastifyRequest): Promise<SubAppActor> => {
    const session = sessionOf(request);
    return { tenantCode: session.tenantCode, account: session.account, clientIp: request.ip, installation: await deps.account.isInstallationAdmin(session.userId) };
  };
  const Grantee = {
    appNo: AppNoSchema,
    tenantCode: Type.String({ minLength: 1, maxLength: 32, description: "The account's tenant: the caller's own unless he is an installation administrator (282)" }),
    account: Type.String({ minLength: 1, maxLength: 128 }),
  };

  app.get(
    apiPaths.subAppList,
    {
      ...adminOnly,
      schema: {
        tags: ['sub-apps'],
        summary: 'System administrators: the registered sub-systems, and the SUBAPP_ENTRIES items whose folder no system uses (they are not loaded)',
        headers: tokenHeaders,
        response: {
          200: envelope(Type.Object({ registered: Type.Array(RegistrationSchema), unknownEntries: Type.Array(Type.Object({ folder: Type.String(), entry: Type.String() })) })),
          ...failureReplies,
        },
      },
    },
    async (request) => {
      const [registered, unknownEntries] = await Promise.all([deps.registrations.list(), deps.registry.unknownEntries()]);
      return ok(request, { registered, unknownEntries });
    },
  );

  app.post(
    apiPaths.subAppRegister,
    {
      ...installationAdminOnly,
      // a code that is not one is refused naming the code, before the schema (whose message names only a pattern)
      preValidation: async (request) => {
        const refusal = appNoRefusal(request.body);
        if (refusal) throw refusal;
      },
      schema: {
        tags: ['sub-apps'],
        summary:
          "Installation administrators (another system administrator: 281): registers or replaces a sub-system of another team (not a built-in one) with its menus, at once and without a restart; every system administrator of every tenant gets it; the content policy admits its entry's origin and scriptOrigins. All or nothing; codes 251-269 and 315 (the system code) say what is wrong; logged installation-wide",
        headers: tokenHeaders,
        body: ManifestSchema,
        response: { 200: envelope(RegistrationSchema), ...failureReplies },
      },
    },
    async (request) => ok(request, await deps.registrations.register(request.body, await actorOf(request), request.lang)),
  );

  app.post(
    apiPaths.subAppRemove,
    {
      ...installationAdminOnly,
      schema: {
        tags: ['sub-apps'],
        summary: 'Installation administrators (another system administrator: 281): removes a registered sub-system with its menus and grants (a built-in system is refused, 262); logged installation-wide',
        headers: tokenHeaders,
        body: Type.Object({ appNo: AppNoSchema }),
        response: { 200: envelope(Type.Null()), ...failureReplies },
      },
    },
    async (request) => {
      await deps.registrations.remove(request.body.appNo, await actorOf(request));
      return ok(request, null);
    },
  );

  app.post(
    apiPaths.subAppGrant,
    {
      ...adminOnly,
      schema: {
        tags: ['sub-apps'],
        summary:
          "System administrators: gives an account of their own tenant a registered sub-system, with the function codes named (default all of the sub-system's); an installation administrator in any tenant (another tenant otherwise: 282). In the tenant's log; from another tenant installation-wide as well",
        headers: tokenHeaders,
        body: Type.Object({ ...Grantee, functionCodes: Type.Optional(FunctionCodes) }),
        response: { 200: envelope(Type.Null()), ...failureReplies },
      },
    },
    async (request) => {
      await deps.registrations.grant(request.body, await actorOf(request));
      return ok(request, null);
    },
  );

  app.post(
    apiPaths.subAppRevoke,
    {
      ...adminOnly,
      schema: {
        tags: ['sub-apps'],
        summary:
          'System administrators: takes a registered sub-system from an account of their own tenant; an installation administrator in any tenant (another tenant otherwise: 282). In the tenant\'s log; from another tenant installation-wide as well',
        headers: tokenHeaders,
        body: Type.Object(Grantee),
        response: { 200: envelope(Type.Null()), ...failureReplies },
      },
    },
    async (request) => {
      await deps.registrations.revoke(request.body, await actorOf(request));
      return ok(request, null);
    },
  );

  // GET (and HEAD): sub-app files; a missing file is a 404 envelope, never the shell's index.html
  app.get(
    `${subAppsPathPrefix}*`,
    {
      schema: {
        tags: ['sub-apps'],
        summary: "A sub-application's file; the folder URL itself answers its index.html",
        response: { 200: Type.Unknown({ description: 'The file with its content type' }), ...failureReplies },
      },
    },
    async (request, reply) => {
      // the raw path, so encoded separators and dots are seen (and refused) as sent
      const rawPath = (request.url.split('?')[0] ?? '').slice(subAppsPathPrefix.length);
      const found = await deps.files.lookup(rawPath);
      switch (found.kind) {
        case 'file':
          return sendFile(request, reply, found.file);
        case 'folder':
          return reply.redirect(found.location, 301);
        case 'refused':
          return sendFailure(request, reply, new AppError(codes.badRequest, { status: 400 }));
        case 'missing':
          return sendFailure(request, reply, new AppError(codes.notFound, { status: 404 }));
      }
    },
  );
}
