import { Type } from 'typebox';
import type { onRequestHookHandler } from 'fastify';
import { apiPaths, codes } from '@campus/contracts';
import type { App } from '../../http/types.ts';
import { AppError, envelope, failureReplies, ok, tokenHeaders } from '../../http/envelope.ts';
import { sessionOf } from '../../http/auth-hook.ts';
import type { AccountService } from '../account/account-service.ts';
import type { OperationLogService } from './operation-log-service.ts';

const LogRow = Type.Object({
  id: Type.String(),
  tenantCode: Type.String(),
  account: Type.String(),
  action: Type.String(),
  result: Type.String(),
  clientIp: Type.String(),
  detail: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.Integer(),
});

export function registerOperationLogRoutes(app: App, logs: OperationLogService, account: AccountService, requireSession: onRequestHookHandler) {
  app.post(
    apiPaths.operationLogSearch,
    {
      onRequest: requireSession,
      schema: {
        tags: ['operation-log'],
        summary: "Operation log of the caller's tenant, newest first (system administrators only)",
        headers: tokenHeaders,
        body: Type.Object({
          page: Type.Object({ index: Type.Integer({ minimum: 1, maximum: 100000 }), size: Type.Integer({ minimum: 1, maximum: 500 }) }),
        }),
        response: { 200: envelope(Type.Array(LogRow)), ...failureReplies },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      if (!(await account.isSystemAdmin(session.userId))) throw new AppError(codes.noPermission, 403);
      const { rows, count } = await logs.search(session.tenantCode, request.body.page.index, request.body.page.size);
      const data = rows.map((r) => ({
        id: r.id,
        tenantCode: r.tenant_code,
        account: r.account,
        action: r.action,
        result: r.result,
        clientIp: r.client_ip,
        detail: r.detail,
        createdAt: r.created_at,
      }));
      return ok(request, data, count);
    },
  );
}
