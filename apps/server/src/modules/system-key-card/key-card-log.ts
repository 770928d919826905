import type { OperationAction, OperationResult } from '@campus/contracts';
import type { CardActor } from '../card-primitives/card-states.ts';
import { installationWide } from '../operation-log/operation-log-service.ts';
import type { OperationEntry } from '../operation-log/operation-log-service.ts';

/**
 * The log entry of an action on a system key card. There is one key card for the whole installation, so its issue,
 * state changes, recycling and recovery are installation-wide entries that every system administrator of every
 * tenant sees; the detail names the tenant the actor acted from.
 */
export function keyCardLogEntry(actor: CardActor, action: OperationAction, result: OperationResult, clientIp: string, detail: string): OperationEntry {
  return { tenantCode: installationWide, account: actor.account, action, result, clientIp, detail: `${detail} (tenant ${actor.tenantCode})` };
}
