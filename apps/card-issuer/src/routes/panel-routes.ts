import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { codes } from '@campus/contracts';
import { IssuerError } from '../http/envelope.ts';

// beside the sources (apps/card-issuer/panel) or, in the self-contained download, beside the bundle (app/panel)
const here = path.dirname(fileURLToPath(import.meta.url));
const panelDir = [path.resolve(here, '..', '..', 'panel'), path.join(here, 'panel')].find((dir) => fs.existsSync(path.join(dir, 'index.html'))) ?? path.join(here, 'panel');
const panelFiles: Record<string, { file: string; type: string }> = {
  '/reader': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/reader/panel.js': { file: 'panel.js', type: 'text/javascript; charset=utf-8' },
  '/reader/panel-language.js': { file: 'panel-language.js', type: 'text/javascript; charset=utf-8' },
  '/reader/panel.css': { file: 'panel.css', type: 'text/css; charset=utf-8' },
};

/** The options every route of the panel API starts from: its guard. */
export interface PanelRoute {
  onRequest: (request: FastifyRequest) => Promise<void>;
}

/**
 * The reader panel (`/reader`), one page for either driver (it asks `/reader/api/status` which one it shows), and
 * the guard of its API (`/reader/api/…`): only the issuer's own pages or callers on this PC without an Origin may
 * call it (the shell's pages may not move cards around).
 */
export function registerPanel(app: FastifyInstance, ownOrigins: () => Set<string>): PanelRoute {
  for (const [url, { file, type }] of Object.entries(panelFiles)) {
    app.get(url, { schema: { hide: true } }, async (_request, reply) =>
      reply
        .type(type)
        .header('cache-control', 'no-cache')
        .header('content-security-policy', "default-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
        .send(fs.readFileSync(path.join(panelDir, file))),
    );
  }
  return {
    onRequest: async (request) => {
      const origin = request.headers.origin;
      if (origin !== undefined && !ownOrigins().has(origin)) throw new IssuerError(codes.noPermission, { status: 403, detail: 'the reader panel API answers the panel only' });
    },
  };
}
