import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { codes } from '@campus/contracts';
import { cardDeviceTokenHeader } from '@campus/contracts';
import { IssuerError } from './envelope.ts';

const allowedHeaders = ['content-type', cardDeviceTokenHeader, 'token', 'tenantcode', 'language', 'transid'].join(', ');

/**
 * Any web page the operator opens could call a service on loopback. The issuer answers only:
 * - requests addressed to itself by name (Host 127.0.0.1:<port> or localhost:<port>): a page of another site
 *   whose name resolves to 127.0.0.1 (DNS rebinding) is refused;
 * - cross-origin requests from the shell origins it is configured for, with their CORS and
 *   Private-Network-Access pre-flights; every other origin gets 403 and no CORS headers, so the browser
 *   keeps the answer from the page. Its own pages (the reader panel) are same-origin.
 */
export function ownOrigins(port: number): Set<string> {
  return new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
}

export function registerOriginGuard(app: FastifyInstance, options: { port: () => number; allowedOrigins: readonly string[] }): void {
  const allowed = new Set(options.allowedOrigins);

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const host = (request.headers.host ?? '').toLowerCase();
    if (host !== `127.0.0.1:${options.port()}` && host !== `localhost:${options.port()}`) {
      throw new IssuerError(codes.noPermission, { status: 403, detail: `this card issuer answers only as 127.0.0.1 or localhost, not "${host}"` });
    }
    const origin = request.headers.origin;
    if (origin === undefined || ownOrigins(options.port()).has(origin)) {
      if (request.method === 'OPTIONS') return reply.code(204).send();
      return;
    }
    if (!allowed.has(origin)) {
      throw new IssuerError(codes.noPermission, { status: 403, detail: `the origin ${origin} is not allowed (CARD_ISSUER_ALLOWED_ORIGINS)` });
    }
    reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
    if (request.method === 'OPTIONS') {
      reply
        .header('access-control-allow-methods', 'GET, POST, OPTIONS')
        .header('access-control-allow-headers', allowedHeaders)
        .header('access-control-max-age', '600');
      if (request.headers['access-control-request-private-network'] === 'true') reply.header('access-control-allow-private-network', 'true');
      return reply.code(204).send();
    }
  });
}
