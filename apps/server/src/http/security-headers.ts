import type { FastifyInstance } from 'fastify';

/** The card issuer's origin and, for one on loopback, its other name (127.0.0.1 ↔ localhost). */
export function cardIssuerOrigins(cardIssuerUrl: string): string[] {
  const url = new URL(cardIssuerUrl);
  const twin = url.hostname === '127.0.0.1' ? 'localhost' : url.hostname === 'localhost' ? '127.0.0.1' : null;
  return twin ? [url.origin, `${url.protocol}//${twin}${url.port ? `:${url.port}` : ''}`] : [url.origin];
}

/**
 * The content security policy of this server; `otherOrigins` are where sub-apps on other servers live,
 * `issuerOrigins` where the browser reaches the local card issuer.
 */
export function contentSecurityPolicy(otherOrigins: readonly string[] = [], issuerOrigins: readonly string[] = cardIssuerOrigins('http://127.0.0.1:18085')): Record<string, string[]> {
  return {
    'default-src': ["'self'"],
    'img-src': ["'self'", 'data:', 'blob:', ...otherOrigins],
    'style-src': ["'self'", "'unsafe-inline'", ...otherOrigins],
    // qiankun fetches a sub-app's scripts and runs them through eval inside its JavaScript sandbox (that is
    // how it isolates their globals), so sub-apps cannot load without 'unsafe-eval'; origins stay 'self'
    // because those scripts arrive by fetch (connect-src), not by <script src>.
    'script-src': ["'self'", "'unsafe-eval'"],
    'connect-src': ["'self'", ...issuerOrigins, ...otherOrigins],
    'font-src': ["'self'", 'data:', ...otherOrigins],
    'frame-ancestors': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
  };
}

/**
 * The security headers of every response. They depend on the configuration and on the origins of the sub-apps,
 * so they are built only when those change (see securityHeadersFor): building them per request (as a generic
 * middleware does) cost a tenth of a small call's time. A route may override one (the oss route sets a stricter
 * CSP for served files).
 */
export function buildSecurityHeaders(otherOrigins: readonly string[] = [], issuerOrigins?: readonly string[]): Readonly<Record<string, string>> {
  return Object.freeze({
    'content-security-policy': Object.entries(contentSecurityPolicy(otherOrigins, issuerOrigins))
      .map(([name, values]) => `${name} ${values.join(' ')}`)
      .join('; '),
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'SAMEORIGIN',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  });
}

/**
 * The headers for the sub-app origins `origins()` answers now, rebuilt only when it answers another list (it
 * answers the same array while nothing changed): an operator registering a sub-system from another server changes
 * the policy without a restart.
 */
export function securityHeadersFor(origins: () => Promise<readonly string[]>, issuerOrigins: readonly string[]): () => Promise<Readonly<Record<string, string>>> {
  let built: { for: readonly string[]; headers: Readonly<Record<string, string>> } | null = null;
  return async () => {
    const now = await origins();
    if (built?.for !== now) built = { for: now, headers: buildSecurityHeaders(now, issuerOrigins) };
    return built.headers;
  };
}

/** HSTS: sent only on HTTPS (on plain HTTP a browser ignores it, and it tells nothing true). */
const strictTransportSecurity = 'max-age=31536000; includeSubDomains';

/**
 * The security headers on every reply; HSTS only when the request came over HTTPS (directly, or through a
 * trusted proxy's X-Forwarded-Proto, see TRUST_PROXY). JSON replies without a caching rule of their own
 * get `no-store`: they carry tokens and signed-in data, which no cache may keep.
 */
export function registerSecurityHeaders(app: FastifyInstance, headers: () => Promise<Readonly<Record<string, string>>>): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.headers(await headers());
    if (request.protocol === 'https') reply.header('strict-transport-security', strictTransportSecurity);
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    const type = String(reply.getHeader('content-type') ?? '');
    if (type.startsWith('application/json') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
