import { Type } from 'typebox';
import type { onRequestHookHandler } from 'fastify';
import { apiPaths } from '@campus/contracts';
import type { App } from '../../http/types.ts';
import { envelope, failureReplies, ok, tokenHeaders } from '../../http/envelope.ts';
import { sessionOf } from '../../http/auth-hook.ts';
import type { AccountService } from '../account/account-service.ts';
import type { LicenceService } from './licence-service.ts';

export function registerLicenceRoutes(app: App, licence: LicenceService, account: AccountService, requireSession: onRequestHookHandler) {
  app.get(
    apiPaths.licencePermission,
    {
      onRequest: requireSession,
      schema: {
        tags: ['licence'],
        summary: 'Whether a licence is in effect and what the user may do about licences',
        headers: tokenHeaders,
        response: {
          200: envelope(
            Type.Object({
              isNormal: Type.Boolean(),
              isSystemAdmin: Type.Boolean(),
              isViewPermission: Type.Boolean(),
              isAddTrialPermission: Type.Boolean(),
              isAddOfficialPermission: Type.Boolean(),
              licenseType: Type.Integer(),
              licenseState: Type.Integer(),
            }),
          ),
          ...failureReplies,
        },
      },
    },
    async (request) => {
      const isAdmin = await account.isSystemAdmin(sessionOf(request).userId);
      return ok(request, await licence.permission(isAdmin));
    },
  );
}
