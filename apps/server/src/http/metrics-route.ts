import { Type } from 'typebox';
import { codes } from '@campus/contracts';
import { addressAllowList } from '../lib/address-allow.ts';
import { countRequest, metricsRegistry } from '../lib/metrics.ts';
import { AppError, sendFailure } from './envelope.ts';
import type { App } from './types.ts';

export interface MetricsOptions {
  /** METRICS: off → /metrics is a 404 like any unknown path. */
  enabled: boolean;
  /** Addresses / CIDR ranges that may read it (config.metricsAllow: loopback plus METRICS_ALLOW). */
  allow: readonly string[];
}

/**
 * Counts every answered request by its route pattern (never the raw URL: unknown paths count as one route), and
 * serves /metrics in Prometheus text format to allowed callers. Off or not allowed: the 404 envelope, so a
 * scanner learns nothing. The caller's address is request.ip, which follows TRUST_PROXY.
 */
export function registerMetrics(app: App, options: MetricsOptions): void {
  // nobody reads the counts while METRICS is off: no hook on every request then
  if (options.enabled) {
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? '(unknown)';
      countRequest(route, request.method, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
  }
  const allowed = addressAllowList(options.allow);
  app.get('/metrics', { schema: { tags: ['health'], summary: 'Prometheus metrics (METRICS=on; loopback and METRICS_ALLOW callers only, else 404)', produces: ['text/plain'], response: { 200: Type.String({ description: 'Prometheus text format' }) } } }, async (request, reply) => {
    if (!options.enabled || !allowed(request.ip)) return sendFailure(request, reply, new AppError(codes.notFound, { status: 404 }));
    const text = await metricsRegistry.metrics();
    return reply.code(200).type(metricsRegistry.contentType).header('Cache-Control', 'no-store').send(text);
  });
}
