import type { FastifySchema, RouteOptions } from 'fastify';

/**
 * How the API description (/docs/json) is made from the routes: an operationId for every operation, the `token`
 * security scheme on every route that refuses a request without a valid token (its onRequest hook is marked with
 * `requiringToken`), optional on routes that merely accept one, none on public routes; multipart uploads and
 * wildcard paths described as a client sees them.
 */
const tokenRequired = Symbol('tokenRequired');

/** Marks an onRequest hook that answers 401 without a valid `token` header. */
export function requiringToken<T extends object>(hook: T): T {
  Object.defineProperty(hook, tokenRequired, { value: true });
  return hook;
}

/** A multipart upload route's files, for its description (the route itself reads the parts). */
export interface UploadDescription {
  field: string;
  maxFiles: number;
  description: string;
}

/** `post /qy/api/SystemKeyCard/Search` → `postQyApiSystemKeyCardSearch`. */
export function operationIdOf(method: string, url: string): string {
  const words = url.split(/[^A-Za-z0-9]+/).filter((word) => word !== '');
  return method.toLowerCase() + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}

function hooksOf(route: RouteOptions): unknown[] {
  const hooks = route.onRequest;
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}

function acceptsToken(schema: FastifySchema): boolean {
  const headers = schema.headers as { properties?: Record<string, unknown> } | undefined;
  return headers?.properties?.token !== undefined;
}

type DescribedSchema = FastifySchema & { security?: unknown; operationId?: string; consumes?: readonly string[]; params?: unknown; 'x-upload'?: UploadDescription };

export function describeRoute({ schema, url, route }: { schema: FastifySchema; url: string; route: RouteOptions }): { schema: FastifySchema; url: string } {
  const described: DescribedSchema = { ...schema };
  const method = Array.isArray(route.method) ? route.method[0]! : route.method;
  let path = url;
  if (path.endsWith('/*')) {
    path = `${path.slice(0, -2)}/{path}`;
    described.params = { type: 'object', required: ['path'], properties: { path: { type: 'string', description: 'The file path below this folder' } } };
  }
  described.operationId ??= operationIdOf(method, path);
  if (described.security === undefined) {
    if (hooksOf(route).some((hook) => typeof hook === 'function' && tokenRequired in hook)) described.security = [{ token: [] }];
    else if (acceptsToken(schema)) described.security = [{}, { token: [] }];
    else described.security = [];
  }
  const upload = described['x-upload'];
  if (upload) {
    delete described['x-upload'];
    described.consumes = ['multipart/form-data'];
    described.body = {
      type: 'object',
      required: [upload.field],
      properties: { [upload.field]: { type: 'array', minItems: 1, maxItems: upload.maxFiles, items: { type: 'string', format: 'binary' }, description: upload.description } },
    };
  }
  return { schema: described, url: path };
}
