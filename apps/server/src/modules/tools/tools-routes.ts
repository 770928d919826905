import fs from 'node:fs';
import { Type } from 'typebox';
import { apiPaths, codes } from '@campus/contracts';
import type { App } from '../../http/types.ts';
import { AppError, failureReplies } from '../../http/envelope.ts';
import type { ToolsService } from './tools-service.ts';
import { toolFileNamePattern } from './tools-service.ts';

export function registerToolsRoutes(app: App, tools: ToolsService) {
  app.get(
    apiPaths.toolsList,
    {
      schema: {
        tags: ['tools'],
        summary: 'Downloadable tools in the request language (a plain JSON array, as the spec reads it)',
        response: {
          200: Type.Array(Type.Object({ showName: Type.String(), use: Type.String(), fileName: Type.String(), url: Type.String() })),
          ...failureReplies,
        },
      },
    },
    async (request, reply) => {
      // names and purposes are in the language of the `language` header
      reply.header('Cache-Control', 'no-cache').header('Vary', 'language');
      return tools.list(request.lang);
    },
  );

  app.get(
    apiPaths.toolsFile,
    {
      schema: {
        tags: ['tools'],
        summary: 'Downloads one tool file',
        params: Type.Object({ fileName: Type.String({ pattern: toolFileNamePattern }) }),
        response: { 200: Type.Unknown({ description: 'The file, as an attachment' }), ...failureReplies },
      },
    },
    async (request, reply) => {
      const file = await tools.file(request.params.fileName);
      if (!file) throw new AppError(codes.notFound, { status: 404 });
      const asciiName = request.params.fileName.replace(/[^A-Za-z0-9._-]/g, '_');
      return reply
        .header('Content-Type', 'application/octet-stream')
        .header('Content-Length', String(file.size))
        .header('Content-Disposition', `attachment; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(request.params.fileName)}`)
        .header('X-Content-Type-Options', 'nosniff')
        .send(fs.createReadStream(file.path));
    },
  );
}
