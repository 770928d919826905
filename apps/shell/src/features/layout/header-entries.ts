import type { PermissionEntry } from '@campus/contracts';
import { deviceServicePermission, goHomePermissions } from '@campus/contracts';

export interface HeaderContext {
  permissions: PermissionEntry[];
  isPrivateDeployment: boolean;
  isSystemAdmin: boolean;
  opsPlatformUrl: string;
}

export interface HeaderEntries {
  /** Device Service: function code 1003163 in any system. */
  deviceService: boolean;
  /** Operations Management Platform: private deployments, system administrators, and an address to open. */
  opsPlatform: boolean;
  /** Backup Logs: private deployments. */
  backupLogs: boolean;
  /** The go-home shortcut to /qy/homePage: the xt system with one of its management codes. */
  goHome: boolean;
}

/** The conditional header and user-menu entries of spec §6. */
export function headerEntries(context: HeaderContext): HeaderEntries {
  const holds = (code: string) => context.permissions.some((entry) => entry.ids.includes(code));
  const xt = context.permissions.find((entry) => entry.appCode === 'xt');
  return {
    deviceService: holds(deviceServicePermission),
    opsPlatform: context.isPrivateDeployment && context.isSystemAdmin && context.opsPlatformUrl !== '',
    backupLogs: context.isPrivateDeployment,
    goHome: Boolean(xt && xt.ids.some((id) => goHomePermissions.includes(id))),
  };
}
