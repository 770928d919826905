import { Type } from 'typebox';
import type { onRequestHookHandler } from 'fastify';
import { apiPaths, backupLogPaging, codes } from '@campus/contracts';
import type { App } from '../../http/types.ts';
import { AppError, envelope, failureReplies, ok, tokenHeaders } from '../../http/envelope.ts';
import { assertTimeRange, timeRangeFields } from '../../http/time-range.ts';
import type { BackupLogService } from './backup-log-service.ts';

const BackupLogRow = Type.Object({
  id: Type.String(),
  name: Type.String(),
  backupTime: Type.Integer({ description: 'Epoch ms the backup was taken' }),
  logTime: Type.Integer({ description: 'Epoch ms the entry was logged (the backup finished)' }),
  filePath: Type.String(),
  addr: Type.String({ description: 'Host that holds the file' }),
  retentionDay: Type.Integer({ description: 'Days the file is kept' }),
  size: Type.Integer({ description: 'File size in bytes' }),
  remarks: Type.String(),
});

const SearchBody = Type.Object({
  pageInfo: Type.Object({
    index: Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Page number, from 1' }),
    size: Type.Integer({ minimum: 1, maximum: backupLogPaging.maxPageSize }),
  }),
  ...timeRangeFields,
});

export interface BackupLogRouteDeps {
  backupLogs: BackupLogService;
  /** The viewer exists on private deployments only (spec §6); elsewhere the call answers 403. */
  privateDeployment: boolean;
  requireSession: onRequestHookHandler;
}

export function registerBackupLogRoutes(app: App, deps: BackupLogRouteDeps) {
  // runs after requireSession and before the body is validated: 401, then 403, then 400
  const privateDeploymentOnly: onRequestHookHandler = async () => {
    if (!deps.privateDeployment) throw new AppError(codes.noPermission, { status: 403 });
  };

  app.post(
    apiPaths.backupLogSearch,
    {
      onRequest: [deps.requireSession, privateDeploymentOnly],
      schema: {
        tags: ['backup-log'],
        summary: 'Backups of this installation, newest first, optionally within a time range (private deployments only)',
        headers: tokenHeaders,
        body: SearchBody,
        response: { 200: envelope(Type.Array(BackupLogRow)), ...failureReplies },
      },
    },
    async (request) => {
      const { pageInfo, startTime, endTime } = request.body;
      assertTimeRange({ startTime, endTime });
      const { rows, count } = await deps.backupLogs.search({ startTime, endTime }, pageInfo.index, pageInfo.size);
      return ok(request, rows, count);
    },
  );
}
