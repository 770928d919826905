import type { FastifyRequest } from 'fastify';

/**
 * This installation's origin as browsers and identity providers reach it: PUBLIC_URL when configured, else the
 * request's scheme and host (behind a proxy, as TRUST_PROXY lets Fastify believe X-Forwarded-Proto and -Host).
 */
export function publicOrigin(request: FastifyRequest, publicUrl: string): string {
  return publicUrl !== '' ? publicUrl : `${request.protocol}://${request.host}`;
}
