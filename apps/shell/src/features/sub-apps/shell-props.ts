import type { UserInfo } from '@campus/contracts';
import { shellVersion } from '@campus/contracts';
import type { ShellApi, ShellGlobalConfig, ShellProps, ShellRoute, ShellUserInfo } from '@campus/subapp-sdk';
import * as storage from '../../lib/storage.ts';
import { currentLanguage } from '../../lib/i18n.ts';
import { useMenuStore } from '../../lib/menus.ts';
import { viewerUtcDiff } from '../../lib/time-format.ts';
import { apiGetCounted, apiPostCounted } from '../../lib/request.ts';
import { defaultSkin } from '@campus/contracts';
import { mayNavigate, type SubAppDefinition } from '../../lib/sub-apps.ts';
import { checkSubApp, reportSubAppFailure } from './sub-app-fit.ts';

/**
 * What the shared state is read from at mount time: the signed-in user, the router's navigate, and what
 * opens Change Password (the account feature's dialog, wired by the app layer).
 */
export interface LiveShell {
  user: UserInfo | null;
  navigate: (to: string) => void;
  changePassword: () => void;
}

/** Calls of sub-apps go through the shell's request layer: same headers, same 401 and error handling. */
const api: ShellApi = {
  get: (path, query) => apiGetCounted(path, query),
  post: (path, body) => apiPostCounted(path, body),
};

function userInfo(user: UserInfo | null): ShellUserInfo {
  return {
    id: user?.id ?? '',
    code: user?.code ?? '',
    name: user?.name ?? '',
    loginTime: user?.loginTime ?? 0,
    isSystemAdmin: user?.isSystemAdmin ?? false,
    tenantCode: user?.tenantCode ?? storage.tenantCode.get() ?? '',
    tenantName: user?.tenantName ?? '',
  };
}

function globalConfig(): ShellGlobalConfig {
  const settings = storage.tenantSettings.get();
  const permissions: Record<string, string[]> = {};
  for (const entry of useMenuStore.getState().permissions) permissions[entry.appCode] = [...entry.ids];
  return {
    tenantCode: storage.tenantCode.get() ?? '',
    mjSystem: settings?.mjSystem ?? 1,
    isPrivateDeployment: Boolean(settings?.isPrivateDeployment),
    systemName: settings?.systemName ?? '',
    skin: settings?.skin ?? defaultSkin,
    // the viewer's clock, the shell's own (lib/time-format.ts): shell and sub-apps show the same times
    utcDiff: viewerUtcDiff(),
    shellVersion,
    permissions,
  };
}

function routers(app: SubAppDefinition): ShellRoute[] {
  return useMenuStore
    .getState()
    .pages.filter((page) => page.path !== '' && app.appNos.includes(page.meta.appNo))
    .map((page) => ({ id: page.id, path: page.path, name: page.name, title: page.title, appNo: page.meta.appNo, parentId: page.meta.parentId }));
}

/**
 * The shared state of spec §3 for `app`. The loader copies these getters at every lifecycle call, so each
 * mount sees the current user, menus and language (the language's later changes are broadcast).
 */
export function shellPropsFor(app: SubAppDefinition, live: () => LiveShell): ShellProps {
  return {
    get userInfo() {
      return userInfo(live().user);
    },
    get globalConfig() {
      return globalConfig();
    },
    get routers() {
      return routers(app);
    },
    get language() {
      return currentLanguage();
    },
    get logoUrl() {
      const settings = storage.tenantSettings.get();
      return settings?.headerLogo || settings?.systemLogo || '';
    },
    changePwd: () => live().changePassword(),
    navigate: (appNo: string, path: string) => {
      const { systems, pages } = useMenuStore.getState();
      if (!mayNavigate(systems.map((system) => system.appNo), pages, appNo, path)) return false;
      live().navigate(path);
      return true;
    },
    api,
    basePath: app.basePath || '/',
    checkSubApp: (report) => checkSubApp(app.name, report),
    reportFailure: (error) => reportSubAppFailure(app.name, error),
  };
}
