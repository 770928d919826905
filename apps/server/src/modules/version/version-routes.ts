import { Type } from 'typebox';
import type { onRequestHookHandler } from 'fastify';
import { apiPaths, reportVersionRules } from '@campus/contracts';
import type { App } from '../../http/types.ts';
import { envelope, failureReplies, ok, tokenHeaders } from '../../http/envelope.ts';
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
        summary: `Registers program versions: 1 to ${reportVersionRules.maxEntries} entries, each replacing the one of the same address and serviceName`,
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
    apiPaths.versionList,
    {
      onRequest: deps.requireSession,
      schema: {
        tags: ['version'],
        summary: 'Program versions of this installation: this server first, then the reported ones by serviceName and address',
        headers: tokenHeaders,
        response: { 200: envelope(Type.Array(VersionEntrySchema)), ...failureReplies },
      },
    },
    async (request) => ok(request, await deps.versions.list()),
  );
}
