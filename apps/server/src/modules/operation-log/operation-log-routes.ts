import { Type } from 'typebox';
import type { onRequestHookHandler } from 'fastify';
import { apiPaths, codes, operationActions, operationLogOperatorMaxLength, operationLogPaging, operationLogPermission } from '@campus/contracts';
import type { App, SessionInfo } from '../../http/types.ts';
import { AppError, envelope, failureReplies, ok, tokenHeaders } from '../../http/envelope.ts';
import { sessionOf } from '../../http/auth-hook.ts';
import { assertTimeRange, timeRangeFields } from '../../http/time-range.ts';
import type { OperationLogService } from './operation-log-service.ts';

const LogRow = Type.Object({
  id: Type.String(),
  tenantCode: Type.String(),
  account: Type.String(),
  action: Type.String(),
  result: Type.String(),
  clientIp: Type.String(),
  detail: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.Integer({ description: 'Epoch ms' }),
});

const SearchBody = Type.Object({
  page: Type.Object({
    index: Type.Integer({ minimum: 1, maximum: 100_000, description: 'Page number, from 1' }),
    size: Type.Integer({ minimum: 1, maximum: operationLogPaging.maxPageSize }),
  }),
  ...timeRangeFields,
  operator: Type.Optional(
    Type.String({ minLength: 1, maxLength: operationLogOperatorMaxLength, description: "Part of the operator's account, case-insensitive; % and _ match themselves" }),
  ),
  action: Type.Optional(Type.Enum(operationActions)),
});

/**
 * The account and menu areas stand above this one (they write to the log), so the route receives what it asks
 * of them from app.ts instead of importing them (DESIGN §3).
 */
export interface OperationLogRouteDeps {
  logs: OperationLogService;
  isSystemAdmin: (userId: string) => Promise<boolean>;
  /** Whether the caller holds `funcId` in the enterprise data system (qy). */
  holdsEnterprisePermission: (session: SessionInfo, funcId: string) => Promise<boolean>;
  requireSession: onRequestHookHandler;
}

export function registerOperationLogRoutes(app: App, deps: OperationLogRouteDeps) {
  // runs after requireSession and before the body is validated: 401, then 403, then 400
  const readBySystemAdmin = new WeakMap<object, boolean>();
  const mayReadLog: onRequestHookHandler = async (request) => {
    const session = sessionOf(request);
    if (await deps.isSystemAdmin(session.userId)) {
      readBySystemAdmin.set(request, true);
      return;
    }
    if (await deps.holdsEnterprisePermission(session, operationLogPermission)) return;
    throw new AppError(codes.noPermission, { status: 403 });
  };

  app.post(
    apiPaths.operationLogSearch,
    {
      onRequest: [deps.requireSession, mayReadLog],
      schema: {
        tags: ['operation-log'],
        summary: `Operation log of the caller's tenant (for system administrators with the installation-wide entries: gate set-up, system key cards, trusted card issuers), newest first, optionally filtered (system administrators and holders of ${operationLogPermission} in qy)`,
        headers: tokenHeaders,
        body: SearchBody,
        response: { 200: envelope(Type.Array(LogRow)), ...failureReplies },
      },
    },
    async (request) => {
      const { page, startTime, endTime, operator, action } = request.body;
      assertTimeRange({ startTime, endTime });
      const { rows, count } = await deps.logs.search(sessionOf(request).tenantCode, { startTime, endTime, operator, action }, page.index, page.size, readBySystemAdmin.get(request) === true);
      return ok(request, rows, count);
    },
  );
}
