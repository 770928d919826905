import { Type } from 'typebox';
import { apiPaths, codes } from '@campus/contracts';
import type { App } from '../../http/types.ts';
import { AppError, failureReplies } from '../../http/envelope.ts';
import type { OssService } from './oss-service.ts';
import { ossIdPattern } from './oss-service.ts';

/** Served objects may be SVG: a sandboxing CSP keeps any script in them inert. */
export const ossContentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

export function registerOssRoutes(app: App, oss: OssService) {
  app.get(
    apiPaths.ossObject,
    {
      schema: {
        tags: ['oss'],
        summary: 'A stored image (logo, login background)',
        params: Type.Object({ id: Type.String({ pattern: ossIdPattern }) }),
        response: { 200: Type.Unknown({ description: 'The image bytes with their content type' }), ...failureReplies },
      },
    },
    async (request, reply) => {
      const object = await oss.get(request.params.id, request.headers.accept);
      if (!object) throw new AppError(codes.notFound, { status: 404 });
      return reply
        .header('Content-Type', object.contentType)
        // AVIF or WebP to a browser that takes them (oss/image-variants.ts): caches keep one copy per Accept
        .header('Vary', 'Accept')
        .header('Content-Security-Policy', ossContentSecurityPolicy)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', 'public, max-age=300')
        .send(object.body);
    },
  );
}
