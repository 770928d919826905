import { Type } from 'typebox';
import type { onRequestHookHandler } from 'fastify';
import { adminCardKind } from '@campus/card-crypto';
import { apiPaths, cardStateLabel, cardStates, cardTablePaging, managementCardKindLabel } from '@campus/contracts';
import type { CardOption, LanguageCode } from '@campus/contracts';
import type { App } from '../../http/types.ts';
import { envelope, failureReplies, ok, tokenHeaders } from '../../http/envelope.ts';
import type { AdminLoginCardService } from '../admin-login-card/admin-login-card-service.ts';
import type { SystemKeyCardService } from '../system-key-card/system-key-card-service.ts';
import { cardActorOf } from '../card-primitives/card-manager-hook.ts';
import { FixedNo, gateOnly } from '../card-primitives/card-schemas.ts';

export interface CardTableRouteDeps {
  adminCards: AdminLoginCardService;
  systemKeyCards: SystemKeyCardService;
  isGate: boolean;
  requireCardManager: onRequestHookHandler;
}

const SearchBody = Type.Object(
  {
    page: Type.Object({ index: Type.Integer({ minimum: 1, maximum: 1_000_000 }), size: Type.Integer({ minimum: 1, maximum: cardTablePaging.maxPageSize }) }, { additionalProperties: false }),
    filters: Type.Optional(
      Type.Array(
        Type.Object({
          field: Type.Union([Type.Literal('OprtId'), Type.Literal('likeSearch'), Type.Literal('cardKinds'), Type.Literal('states')]),
          value: Type.String({ maxLength: 200, pattern: '^[^\\u0000-\\u001f\\u007f]*$' }),
        }),
        { maxItems: 8 },
      ),
    ),
    orderBys: Type.Optional(
      Type.Array(Type.Object({ field: Type.Union([Type.Literal('createTime'), Type.Literal('state'), Type.Literal('fixedNo'), Type.Literal('num')]), isAsc: Type.Optional(Type.Boolean()) }), { maxItems: 4 }),
    ),
  },
  { additionalProperties: false },
);
const Option = Type.Object({ value: Type.Integer(), label: Type.String() });
const AdminRow = Type.Object({
  id: Type.String(),
  oprtNo: Type.String(),
  oprtName: Type.String(),
  kindNum: Type.Integer(),
  fixedNo: Type.String(),
  state: Type.Integer(),
  oprtId: Type.String(),
  num: Type.Integer(),
  createTime: Type.Integer(),
});
const KeyRow = Type.Object({ id: Type.String(), kindNum: Type.Integer(), fixedNo: Type.String(), state: Type.Integer(), createTime: Type.Integer() });

/** The states by name as a list shows them, capitalised like the table's (the label inside a sentence is lower-case). */
function stateOptions(language: LanguageCode): CardOption[] {
  return Object.values(cardStates).map((state) => {
    const label = cardStateLabel(state, language);
    return { value: state, label: label.charAt(0).toUpperCase() + label.slice(1) };
  });
}

/** The table calls' paths (the route walk of the tests knows them as card management). */
export const cardTablePaths: readonly string[] = [
  apiPaths.adminCardStateList, apiPaths.keyCardStateList, apiPaths.adminCardKindList, apiPaths.keyCardKindList,
  apiPaths.adminCardGetSystemAdmin, apiPaths.adminCardSearch, apiPaths.adminCardSeek, apiPaths.keyCardSearch, apiPaths.keyCardSeek,
];

/** The card management tables' calls: the option lists, Search (paged) and Seek, for both kinds of card. */
export function registerCardTableRoutes(app: App, deps: CardTableRouteDeps) {
  const onRequest = [gateOnly(deps.isGate), deps.requireCardManager];
  const tags = ['card management'];
  const options = (url: string, summary: string, list: (language: LanguageCode) => CardOption[]) =>
    app.post(url, { onRequest, schema: { tags, summary, headers: tokenHeaders, response: { 200: envelope(Type.Array(Option)), ...failureReplies } } }, async (request) => ok(request, list(request.lang)));
  for (const url of [apiPaths.adminCardStateList, apiPaths.keyCardStateList]) options(url, 'The card states, labelled in the caller’s language', stateOptions);
  for (const url of [apiPaths.adminCardKindList, apiPaths.keyCardKindList]) options(url, 'The card kinds', (language) => [{ value: adminCardKind, label: managementCardKindLabel[language] }]);

  app.post(
    apiPaths.adminCardGetSystemAdmin,
    {
      onRequest,
      schema: { tags, summary: 'The tenant’s system administrators (who may hold an administrator login card)', headers: tokenHeaders, response: { 200: envelope(Type.Array(Type.Object({ id: Type.String(), no: Type.String(), name: Type.String() }))), ...failureReplies } },
    },
    async (request) => ok(request, await deps.adminCards.systemAdmins(cardActorOf(request))),
  );
  app.post(
    apiPaths.adminCardSearch,
    { onRequest, schema: { tags, summary: 'One page of the tenant’s administrator login cards (recordCount: how many match)', headers: tokenHeaders, body: SearchBody, response: { 200: envelope(Type.Array(AdminRow)), ...failureReplies } } },
    async (request) => {
      const { rows, total } = await deps.adminCards.search(cardActorOf(request), request.body);
      return ok(request, rows, total);
    },
  );
  app.post(
    apiPaths.adminCardSeek,
    { onRequest, schema: { tags, summary: 'The tenant’s administrator login card with this fixed number, or null', headers: tokenHeaders, body: Type.Object({ fixedNo: FixedNo }), response: { 200: envelope(Type.Union([AdminRow, Type.Null()])), ...failureReplies } } },
    async (request) => ok(request, await deps.adminCards.seek(cardActorOf(request), request.body.fixedNo)),
  );
  app.post(
    apiPaths.keyCardSearch,
    { onRequest, schema: { tags, summary: 'One page of the system key cards (recordCount: how many match)', headers: tokenHeaders, body: SearchBody, response: { 200: envelope(Type.Array(KeyRow)), ...failureReplies } } },
    async (request) => {
      const { rows, total } = await deps.systemKeyCards.search(request.body);
      return ok(request, rows, total);
    },
  );
  app.post(
    apiPaths.keyCardSeek,
    { onRequest, schema: { tags, summary: 'The system key card with this fixed number, or null', headers: tokenHeaders, body: Type.Object({ fixedNo: FixedNo }), response: { 200: envelope(Type.Union([KeyRow, Type.Null()])), ...failureReplies } } },
    async (request) => ok(request, await deps.systemKeyCards.seek(request.body.fixedNo)),
  );
}
