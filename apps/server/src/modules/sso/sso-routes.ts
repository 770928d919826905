import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { apiPaths, codes, toLanguage } from '@campus/contracts';
import type { IdentityProviderKind } from '@campus/contracts';
import { AppError, InvalidRequest, envelope, failureReplies, languageHeaders, ok } from '../../http/envelope.ts';
import { browserLanguage } from '../../http/browser-language.ts';
import { publicOrigin } from '../../http/public-origin.ts';
import type { App } from '../../http/types.ts';
import { ProviderId } from './identity-provider-routes.ts';
import { failureLocation } from './sso-service.ts';
import type { SsoService } from './sso-service.ts';

export interface SsoRouteDeps {
  sso: SsoService;
  publicUrl: string;
  rateLimitPerMinute: number;
}

const printable = '^[^\\u0000-\\u001f\\u007f]*$';
/** The largest form a provider posts (a logout token, a CAS logoutRequest). */
const formBodyLimit = 128 * 1024;
const TenantCode = Type.String({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9_-]*$' });
const State = Type.String({ maxLength: 512, pattern: printable, description: 'The round trip this server sent the provider' });
const Redirect = Type.Null({ description: 'HTTP 302: Location is where the browser goes next (the provider, or /not-login)' });
/** A provider's form post: each field once (a repeated field is refused), as the protocols send it. */
const FormFields = Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 65_536 }), { description: 'application/x-www-form-urlencoded' });

/** A browser navigation's answer: 302, not kept by any cache (the Location carries a round trip or a ticket). */
function redirect(reply: FastifyReply, location: string): FastifyReply {
  return reply.header('Cache-Control', 'no-store').redirect(location, 302);
}

/**
 * The external sign-in's calls (issue 49, docs/sso.md): browser navigations (Start, the callbacks) answered with a
 * 302, every failure to the landing /not-login?code=&msg=; the landing's ticket exchange; the providers' logout
 * messages (form posts). None needs a session. Form bodies are parsed for these routes only.
 */
export async function registerSsoRoutes(app: App, deps: SsoRouteDeps): Promise<void> {
  const { sso } = deps;
  const rateLimit = { rateLimit: { max: deps.rateLimitPerMinute, timeWindow: 60_000 } };
  const origin = (request: FastifyRequest) => publicOrigin(request, deps.publicUrl);
  /** A callback's failure that is no business failure (a fault): logged, and the landing shows the internal error. */
  const landed = async (request: FastifyRequest, reply: FastifyReply, work: () => Promise<string>) => {
    let location: string;
    try {
      location = await work();
    } catch (error) {
      if (!(error instanceof AppError)) request.log.error({ err: error }, 'external sign-in failed');
      location = failureLocation(error instanceof AppError ? error : new AppError(codes.internalError, { status: 500 }), browserLanguage(request));
    }
    return redirect(reply, location);
  };

  await app.register(async (scope) => {
    const routes = scope.withTypeProvider<TypeBoxTypeProvider>();
    // the providers' logout messages are form posts: parsed here, for these routes only; a field sent twice is refused
    routes.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: formBodyLimit }, (_request, body, done) => {
      const fields: Record<string, string> = {};
      for (const [name, value] of new URLSearchParams(body as string)) {
        if (Object.hasOwn(fields, name)) return done(new InvalidRequest(`body/${name.slice(0, 64)} is sent more than once`), undefined);
        fields[name] = value;
      }
      done(null, fields);
    });

    routes.get(
      apiPaths.ssoStart,
      {
        config: rateLimit,
        schema: {
          tags: ['sso'],
          summary: "A browser navigation: stores the round trip and sends the browser to the tenant's identity provider (302)",
          headers: languageHeaders,
          querystring: Type.Object({
            providerId: ProviderId,
            tenantCode: TenantCode,
            fromPath: Type.Optional(Type.String({ maxLength: 4096, description: 'Where the shell goes after sign-in: a path on this server only, else dropped' })),
            lang: Type.Optional(Type.String({ maxLength: 16, description: 'zh-CN, zh-MO or en-US: the language of the failures (default: the language header)' })),
          }),
          response: { 302: Redirect, ...failureReplies },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const lang = q.lang === undefined ? browserLanguage(request) : toLanguage(q.lang);
        return landed(request, reply, () => sso.start({ providerId: q.providerId, tenantCode: q.tenantCode, fromPath: q.fromPath, lang, origin: origin(request), clientIp: request.ip }));
      },
    );

    const callback = (kind: IdentityProviderKind) => async (request: FastifyRequest<{ Querystring: { state?: string } }>, reply: FastifyReply) =>
      landed(request, reply, () =>
        sso.callback({ kind, state: request.query.state, callbackUrl: new URL(request.url, origin(request)), origin: origin(request), lang: browserLanguage(request), clientIp: request.ip }),
      );

    routes.get(
      apiPaths.ssoOidcCallback,
      {
        config: rateLimit,
        schema: {
          tags: ['sso'],
          summary: "The OpenID provider's redirect back (?code&state, or ?error&state): to /not-login with a one-time login ticket, or with the failure (302)",
          headers: languageHeaders,
          querystring: Type.Object({ state: Type.Optional(State), code: Type.Optional(Type.String({ maxLength: 4096 })), error: Type.Optional(Type.String({ maxLength: 256 })) }),
          response: { 302: Redirect, ...failureReplies },
        },
      },
      callback('oidc'),
    );

    routes.get(
      apiPaths.ssoCasCallback,
      {
        config: rateLimit,
        schema: {
          tags: ['sso'],
          summary: "The CAS server's redirect back (?state&ticket): to /not-login with a one-time login ticket, or with the failure (302)",
          headers: languageHeaders,
          querystring: Type.Object({ state: Type.Optional(State), ticket: Type.Optional(Type.String({ maxLength: 4096 })) }),
          response: { 302: Redirect, ...failureReplies },
        },
      },
      callback('cas'),
    );

    routes.post(
      apiPaths.ssoCasCallback,
      {
        config: rateLimit,
        schema: {
          tags: ['sso'],
          summary: "CAS single logout: the CAS server posts logoutRequest to the service; the sessions of that service ticket end on every node",
          headers: languageHeaders,
          querystring: Type.Object({ state: Type.Optional(State), providerId: Type.Optional(ProviderId) }),
          body: FormFields,
          response: { 200: envelope(Type.Object({ ended: Type.Integer() })), ...failureReplies },
        },
      },
      async (request) => {
        const ended = await sso.casSingleLogout({ providerId: request.query.providerId, state: request.query.state }, request.body, request.ip);
        return ok(request, { ended });
      },
    );

    routes.post(
      apiPaths.ssoBackchannelLogout,
      {
        config: rateLimit,
        schema: {
          tags: ['sso'],
          summary: "OpenID Connect back-channel logout: the provider posts logout_token; the sessions it names end on every node",
          headers: languageHeaders,
          querystring: Type.Object({ providerId: ProviderId }),
          body: FormFields,
          response: { 200: envelope(Type.Object({ ended: Type.Integer() })), ...failureReplies },
        },
      },
      async (request, reply) => {
        reply.header('Cache-Control', 'no-store');
        const ended = await sso.backchannelLogout(request.query.providerId, request.body, request.ip);
        return ok(request, { ended });
      },
    );

    routes.post(
      apiPaths.ssoExchangeTicket,
      {
        config: rateLimit,
        schema: {
          tags: ['sso'],
          summary: "The landing trades the one-time login ticket (60 s, once) for the session: login type 4",
          headers: languageHeaders,
          body: Type.Object({ ticket: Type.String({ maxLength: 64, pattern: '^[A-Za-z0-9_-]*$' }), tenantCode: TenantCode }),
          response: { 200: envelope(Type.Object({ token: Type.String(), tenantCode: Type.String() })), ...failureReplies },
        },
      },
      async (request, reply) => {
        reply.header('Cache-Control', 'no-store');
        return ok(request, await sso.exchange(request.body.ticket, request.body.tenantCode, request.ip));
      },
    );
  });
}
