import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { signedInPreloadScript } from '@campus/contracts';
import { devOverrideSources } from '../lib/dev-override-origins.ts';
import { sha256Base64 } from '../lib/hash.ts';

/** The one inline script of the shell's index.html, allowed by its hash (packages/contracts/src/signed-in-preload.ts). */
export const signedInPreloadScriptSource = `'sha256-${sha256Base64(signedInPreloadScript)}'`;

/** The card issuer's origin and, for one on loopback, its other name (127.0.0.1 ↔ localhost). */
export function cardIssuerOrigins(cardIssuerUrl: string): string[] {
  const url = new URL(cardIssuerUrl);
  const twin = url.hostname === '127.0.0.1' ? 'localhost' : url.hostname === 'localhost' ? '127.0.0.1' : null;
  return twin ? [url.origin, `${url.protocol}//${twin}${url.port ? `:${url.port}` : ''}`] : [url.origin];
}

/**
 * The content security policy of this server; `otherOrigins` are where sub-apps on other servers live,
 * `issuerOrigins` where the browser reaches the local card issuer, `devOrigins` the developers' dev servers the
 * operator admits (SUBAPP_DEV_OVERRIDES, lib/dev-override-origins.ts; none by default).
 */
export function contentSecurityPolicy(
  otherOrigins: readonly string[] = [],
  issuerOrigins: readonly string[] = cardIssuerOrigins('http://127.0.0.1:18085'),
  devOrigins: readonly string[] = [],
): Record<string, string[]> {
  const dev = devOverrideSources(devOrigins);
  return {
    'default-src': ["'self'"],
    'img-src': ["'self'", 'data:', 'blob:', ...otherOrigins, ...dev.pages],
    'style-src': ["'self'", "'unsafe-inline'", ...otherOrigins, ...dev.pages],
    // qiankun fetches a sub-app's scripts and runs them through eval inside its JavaScript sandbox (that is
    // how it isolates their globals), so sub-apps cannot load without 'unsafe-eval'; origins stay 'self'
    // because those scripts arrive by fetch (connect-src), not by <script src>. The one inline script is the
    // shell's own, allowed by its hash, never by 'unsafe-inline'. A dev server's modules are imported (its hot
    // reload runs as modules of its own origin), not fetched.
    'script-src': ["'self'", "'unsafe-eval'", signedInPreloadScriptSource, ...dev.pages],
    'connect-src': ["'self'", ...issuerOrigins, ...otherOrigins, ...dev.pages, ...dev.sockets],
    'font-src': ["'self'", 'data:', ...otherOrigins, ...dev.pages],
    // the image code said aloud arrives as a data: URL inside its JSON answer (modules/auth/captcha-audio.ts)
    'media-src': ["'self'", 'data:'],
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
export function buildSecurityHeaders(otherOrigins: readonly string[] = [], issuerOrigins?: readonly string[], devOrigins: readonly string[] = []): Readonly<Record<string, string>> {
  return Object.freeze({
    'content-security-policy': Object.entries(contentSecurityPolicy(otherOrigins, issuerOrigins, devOrigins))
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

/** A value a reply needs: at once when it is at hand (`now`), else after a wait (`later`). */
export interface Current<T> {
  now(): T | null;
  later(): Promise<T>;
}

/**
 * The headers for the sub-app origins as they are now, rebuilt only when the origins are another list (they are the
 * same array while nothing changed): an operator registering a sub-system from another server changes the policy
 * without a restart.
 */
export function securityHeadersFor(origins: Current<readonly string[]>, issuerOrigins: readonly string[], devOrigins: readonly string[] = []): Current<Readonly<Record<string, string>>> {
  let built: { for: readonly string[]; headers: Readonly<Record<string, string>> } | null = null;
  const headersOf = (now: readonly string[]) => {
    if (built?.for !== now) built = { for: now, headers: buildSecurityHeaders(now, issuerOrigins, devOrigins) };
    return built.headers;
  };
  return {
    now: () => {
      const now = origins.now();
      return now === null ? null : headersOf(now);
    },
    later: async () => headersOf(await origins.later()),
  };
}

/**
 * The cookie a shell sets in the browser of a developer whose override the server allows (SUBAPP_DEV_OVERRIDES): only
 * that browser's pages get the policy that admits the dev origins, everyone else's keep the strict one. The cookie
 * alone loads nothing; it only widens that browser's own policy to the origins the operator admitted.
 */
export const devBrowserCookie = 'campus-dev-override';

function marksDevBrowser(cookieHeader: string | undefined): boolean {
  return cookieHeader !== undefined && cookieHeader.split(';').some((pair) => pair.trim() === `${devBrowserCookie}=1`);
}

/** HSTS: sent only on HTTPS (on plain HTTP a browser ignores it, and it tells nothing true). */
const strictTransportSecurity = 'max-age=31536000; includeSubDomains';

/**
 * The security headers on every reply (`devBrowser`'s for a developer's browser, when overrides are allowed); HSTS
 * only when the request came over HTTPS (directly, or through a trusted proxy's X-Forwarded-Proto, see TRUST_PROXY). JSON replies without a caching rule of their own
 * get `no-store`: they carry tokens and signed-in data, which no cache may keep.
 * The hooks take callbacks, not promises: they run on every request, and the headers are at hand nearly always
 * (a promise and its turn of the event loop per hook cost a small call a noticeable share of its time).
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  everyone: Current<Readonly<Record<string, string>>>,
  devBrowser: Current<Readonly<Record<string, string>>> | null = null,
): void {
  const apply = (request: FastifyRequest, reply: FastifyReply, set: Readonly<Record<string, string>>) => {
    reply.headers(set);
    if (request.protocol === 'https') reply.header('strict-transport-security', strictTransportSecurity);
  };
  app.addHook('onRequest', (request, reply, done) => {
    const headers = devBrowser !== null && marksDevBrowser(request.headers.cookie) ? devBrowser : everyone;
    const ready = headers.now();
    if (ready !== null) {
      apply(request, reply, ready);
      done();
      return;
    }
    headers.later().then(
      (set) => {
        apply(request, reply, set);
        done();
      },
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
    );
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('application/json') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    if (isShellScriptOrStyle(request.url, type)) for (const name of documentOnlyHeaders) reply.removeHeader(name);
    done(null, payload);
  });
}

/**
 * Headers a browser reads only on a document (a page or a frame). The shell's scripts and styles are never
 * documents and start no worker, so these only made each of the login page's twenty-odd files about 550 bytes
 * heavier on the wire (issue 27). What a script or style does use stays: nosniff, the resource policy, and the
 * referrer policy of the requests a stylesheet makes. Sub-apps' files keep every header (they may start workers,
 * whose policy comes with their script); so does anything a browser could open as a page (HTML, SVG).
 */
const documentOnlyHeaders = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
] as const;

const shellAssetPrefix = '/assets/';

function isShellScriptOrStyle(url: string, contentType: unknown): boolean {
  if (!url.startsWith(shellAssetPrefix) || typeof contentType !== 'string') return false;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return type === 'application/javascript' || type === 'text/javascript' || type === 'text/css';
}
