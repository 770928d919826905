import type { FastifyInstance } from 'fastify';

/**
 * The policy of a reply that names none itself: an envelope loads nothing and no site may frame it. The reader
 * panel and the /docs page send policies of their own, which keep frame-ancestors 'none'.
 */
const apiPolicy = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const everyReply: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': apiPolicy,
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
});

/**
 * The headers of every reply of the issuer, refusals included (set before the origin guard runs). Its JSON replies
 * carry card images, the server's sign-in token and the device key: no cache may keep them (`no-store`), unless a
 * route set its own caching rule.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(everyReply);
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('application/json') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}
