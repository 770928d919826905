import path from 'node:path';
import type { Localised } from '@campus/contracts';

/** The service's key name (sc.exe, the registry) and what Windows' Services list shows. */
export const serviceName = 'CampusCardIssuer';
export const serviceDisplayName: Localised = { 'en-US': 'Campus card issuer', 'zh-CN': '校园卡发卡服务', 'zh-MO': '校園卡發卡服務' };
export const serviceDescription: Localised = {
  'en-US': 'The local card issuer of the campus shell: drives the card reader on this PC for the browser (http://127.0.0.1:18085).',
  'zh-CN': '校园平台的本地发卡器：为浏览器驱动本机的读卡器（http://127.0.0.1:18085）。',
  'zh-MO': '校園平台的本機發卡器：為瀏覽器驅動本機的讀卡器（http://127.0.0.1:18085）。',
};

/** SERVICE_STATUS.dwCurrentState. */
export const serviceStates = { stopped: 1, startPending: 2, stopPending: 3, running: 4, continuePending: 5, pausePending: 6, paused: 7 } as const;
export type ServiceStateName = keyof typeof serviceStates;
export const stateName = (value: number): ServiceStateName =>
  (Object.entries(serviceStates).find(([, code]) => code === value)?.[0] as ServiceStateName | undefined) ?? 'stopped';

const windowsFolder = (env: Record<string, string | undefined>, variable: string, fallback: string) => env[variable]?.trim() || fallback;

/** Where the service keeps its data (LocalSystem's, for SYSTEM and Administrators only): %ProgramData%\CampusCardIssuer. */
export const serviceDataDir = (env: Record<string, string | undefined> = process.env): string =>
  path.win32.join(windowsFolder(env, 'ProgramData', 'C:\\ProgramData'), serviceName);

/** Where the installer puts node.exe and app\ for the service: %ProgramFiles%\CampusCardIssuer (administrators only). */
export const serviceProgramDir = (env: Record<string, string | undefined> = process.env): string =>
  path.win32.join(windowsFolder(env, 'ProgramFiles', 'C:\\Program Files'), serviceName);

/** The files in the data folder. */
export const serviceFiles = (dataDir: string) => ({
  log: path.win32.join(dataDir, 'logs', 'issuer.log'),
  settings: path.win32.join(dataDir, 'settings.txt'),
});
