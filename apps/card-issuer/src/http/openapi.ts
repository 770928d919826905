import type { FastifySchema, RouteOptions } from 'fastify';
import { cardDeviceTokenHeader } from '@campus/contracts';

/**
 * How the issuer's API description is made from its routes (the server's apps/server/src/http/openapi.ts does the
 * same for the server): an operationId for every operation, the `cardDeviceToken` security scheme on the card
 * calls (they answer 990209 without a paired token) and none elsewhere, and the replies as a caller meets them.
 * Only the description changes: the routes' own schemas, and so what they accept and send, stay as they are.
 */
export const issuerOpenApi = {
  openapi: '3.0.3',
  info: {
    title: 'Campus card issuer',
    version: '1.0.0',
    description:
      'The local card-issuer service (spec §7 "Card-device calls", docs/cards.md). Every reply is the envelope {code, msg, data}; pair the browser session with AddIdentity, then send its cardDeviceToken header on every card call.',
    license: { name: 'Proprietary: licensed to the installation it ships with' },
  },
  servers: [{ url: '/', description: 'This card issuer (http://127.0.0.1:18085 unless CARD_ISSUER_PORT moves it)' }],
  components: {
    securitySchemes: {
      cardDeviceToken: {
        type: 'apiKey' as const,
        in: 'header' as const,
        name: cardDeviceTokenHeader,
        description: 'The token of a browser session paired with AddIdentity (spec §7 cardDeviceToken); without it a card call answers 990209',
      },
    },
  },
};

/** `post /api/AuthDevice/AddIdentity` → `postApiAuthDeviceAddIdentity`. */
export function operationIdOf(method: string, url: string): string {
  const words = url.split(/[^A-Za-z0-9]+/).filter((word) => word !== '');
  return method.toLowerCase() + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}

const envelope = (data: Record<string, unknown>, description: string) => ({
  type: 'object',
  description,
  required: ['code', 'msg', 'data'],
  properties: {
    code: { type: 'integer', description: '0 on success; otherwise a reader code (990xxx, docs/cards.md "Reader codes") or a server code' },
    msg: { type: 'string', description: "The code's message in the caller's language (the `language` header)" },
    data,
  },
});

const answered = envelope({ description: 'What the call answers; null on a failure' }, 'The envelope: code 0 and the data, or a reader code and its message (a reader failure is HTTP 200)');
const refused = envelope(
  { type: 'object', nullable: true, description: 'Always null' },
  'Refused before the call ran: bad input (400, code 101, naming the field), a foreign origin or host (403, code 131), an unknown path (404, code 141) or a body over 16 KB (413)',
);

function carriesDeviceToken(schema: FastifySchema): boolean {
  const headers = schema.headers as { properties?: Record<string, unknown> } | undefined;
  return headers?.properties?.[cardDeviceTokenHeader] !== undefined;
}

type DescribedSchema = FastifySchema & { operationId?: string };

export function describeIssuerRoute({ schema, url, route }: { schema: FastifySchema | undefined; url: string; route: RouteOptions }): { schema: FastifySchema; url: string } {
  const described: DescribedSchema = { ...schema };
  const method = Array.isArray(route.method) ? route.method[0]! : route.method;
  described.operationId ??= operationIdOf(method, url);
  if (carriesDeviceToken(described)) {
    // the security scheme describes the header: not again as a parameter
    described.security = [{ cardDeviceToken: [] }];
    delete described.headers;
  } else described.security ??= [];
  described.response = { 200: answered, '4XX': refused, ...(described.response as Record<string, unknown> | undefined) };
  return { schema: described, url };
}
