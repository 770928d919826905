import { Type } from 'typebox';
import type { onRequestHookHandler } from 'fastify';
import { apiPaths, reportVersionRules } from '@campus/contracts';
import type { App } from '../../http/types.ts';
import { InvalidRequest, envelope, failureReplies, ok, tokenHeaders } from '../../http/envelope.ts';
import type { VersionService } from './version-service.ts';

const VersionEntrySchema = Type.Object({
  address: Type.String({ minLength: 1, maxLength: 255, pattern: reportVersionRules.addressPattern, description: 'Host, or host:port when the host is an address; no spaces' }),
  serviceName: Type.String({ pattern: reportVersionRules.serviceNamePattern, description: 'Letters, digits, ".", "_", "-"; 1 to 64' }),
  version: Type.String({ pattern: reportVersionRules.versionPattern, description: 'Letters, digits, ".", "_", "+", "-"; 1 to 64' }),
});

export interface VersionRouteDeps {
  versions: VersionService;
  requireSession: onRequestHookHandler;
}

export function registerVersionRoutes(app: App, deps: VersionRouteDeps) {
  app.post(
    apiPaths.reportVersion,
    {
      onRequest: deps.requireSession,
      schema: {
        tags: ['version'],
        summary: `Registers program versions: 1 to ${reportVersionRules.maxEntries} entries of this installation's programs (the shell at this server's version, the sub-apps and device service at the versions of their report-version files, sub-apps on other servers under their host), each replacing the row of its serviceName; all or none (HTTP 400, code 201 naming the first other entry)`,
        headers: tokenHeaders,
        body: Type.Object({ versions: Type.Array(VersionEntrySchema, { minItems: 1, maxItems: reportVersionRules.maxEntries }) }),
        response: { 200: envelope(Type.Null()), ...failureReplies },
      },
    },
    async (request) => {
      await deps.versions.report(request.body.versions);
      return ok(request, null);
    },
  );

  app.get(
    apiPaths.reportFolders,
    {
      onRequest: deps.requireSession,
      schema: {
        tags: ['version'],
        summary: "The folders under this server's /subapps/ that hold a report-version file (sub-apps and the device service): the shell asks only these, so a deployment without one is never asked for a file it does not have",
        headers: tokenHeaders,
        response: { 200: envelope(Type.Array(Type.String())), ...failureReplies },
      },
    },
    async (request) => ok(request, await deps.versions.reportFolders()),
  );

  app.get(
    apiPaths.versionList,
    {
      onRequest: deps.requireSession,
      schema: {
        tags: ['version'],
        summary: 'Program versions of this installation, one page: this server first, then the reported ones by serviceName (recordCount: all of them)',
        headers: tokenHeaders,
        // query values are text (no type coercion on this server): whole numbers checked here, ranges below
        querystring: Type.Object({
          index: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,5}$', description: 'Page, from 1' })),
          size: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,2}$', description: `Rows a page, 1 to ${reportVersionRules.maxPageSize} (default ${reportVersionRules.defaultPageSize})` })),
        }),
        response: { 200: envelope(Type.Array(VersionEntrySchema)), ...failureReplies },
      },
    },
    async (request) => {
      const size = Number(request.query.size ?? reportVersionRules.defaultPageSize);
      if (size > reportVersionRules.maxPageSize) throw new InvalidRequest(`querystring/size must be <= ${reportVersionRules.maxPageSize}`);
      const { rows, count } = await deps.versions.list(Number(request.query.index ?? 1), size);
      return ok(request, rows, count);
    },
  );
}
