import { Type } from 'typebox';
import type { onRequestHookHandler } from 'fastify';
import { apiPaths, codes } from '@campus/contracts';
import type { App } from '../../http/types.ts';
import { AppError, envelope, failureReplies, ok, tokenHeaders } from '../../http/envelope.ts';
import { sessionOf } from '../../http/auth-hook.ts';
import { enterpriseDataSystem } from '../menu/menu-service.ts';
import type { MenuService } from '../menu/menu-service.ts';
import type { EnterpriseService } from './enterprise-service.ts';

const HomeFiguresSchema = Type.Object({
  employeeCount: Type.Integer(),
  departmentCount: Type.Integer(),
  activeSessionCount: Type.Integer({ description: 'Sessions of the tenant signed in now (not expired, not logged out)' }),
  licence: Type.Object({ isNormal: Type.Boolean(), licenseType: Type.Integer(), licenseState: Type.Integer() }),
});

export interface EnterpriseRouteDeps {
  enterprise: EnterpriseService;
  menu: MenuService;
  requireSession: onRequestHookHandler;
}

export function registerEnterpriseRoutes(app: App, deps: EnterpriseRouteDeps) {
  const holdsEnterpriseData: onRequestHookHandler = async (request) => {
    if (!(await deps.menu.holds(sessionOf(request), enterpriseDataSystem))) throw new AppError(codes.noPermission, { status: 403 });
  };

  app.get(
    apiPaths.qyHomeFigures,
    {
      onRequest: [deps.requireSession, holdsEnterpriseData],
      schema: {
        tags: ['enterprise'],
        summary: "Figures of the caller's tenant for the enterprise-data home page (users holding the qy system)",
        headers: tokenHeaders,
        response: { 200: envelope(HomeFiguresSchema), ...failureReplies },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return ok(request, await deps.enterprise.homeFigures(sessionOf(request).tenantCode));
    },
  );
}
