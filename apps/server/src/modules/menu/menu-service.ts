import type { LanguageCode, Localised, MenuData, MenuPage, MenuSystem, PermissionEntry } from '@campus/contracts';
import { pickLocalised, toLocalisedJson } from '../../lib/localised.ts';
import type { MenuRepository } from './menu-repository.ts';

export interface NewSystem {
  id: string;
  appNo: string;
  appId: string;
  frontRoutingAddr: string;
  label: Localised;
  sortNum: number;
}

export interface NewPage {
  id: string;
  appNo: string;
  parentId: string | null;
  path: string;
  name: string;
  title: Localised;
  sortNum: number;
  funcRightPerms?: string[];
  isSide?: boolean;
  icon?: string;
}

function parseIds(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/** Systems, pages and the permission grants of users. */
export class MenuService {
  constructor(private readonly repo: MenuRepository) {}

  async permissions(userId: string): Promise<PermissionEntry[]> {
    const [grants, systems] = await Promise.all([this.repo.grants(userId), this.repo.systems()]);
    const order = new Map(systems.map((s, i) => [s.app_no, i]));
    return grants
      .filter((g) => order.has(g.app_code))
      .sort((a, b) => (order.get(a.app_code) ?? 0) - (order.get(b.app_code) ?? 0))
      .map((g) => ({ appCode: g.app_code, ids: parseIds(g.func_ids) }));
  }

  /**
   * The systems of the user's permission list and their pages, in `language`. A page with isFuncRight
   * is left out unless the user holds one of its funcRightPerms in that system; a group whose pages
   * were all left out goes too. Both lists ascend by sortNum.
   */
  async menus(userId: string, language: LanguageCode): Promise<MenuData> {
    const permissions = await this.permissions(userId);
    const held = new Map(permissions.map((p) => [p.appCode, new Set(p.ids)]));
    const systems = (await this.repo.systems()).filter((s) => held.has(s.app_no));
    const pages = await this.repo.pages(systems.map((s) => s.app_no));

    const allowed = pages.filter((p) => {
      if (p.is_func_right !== 1) return true;
      const ids = held.get(p.app_no);
      return parseIds(p.func_right_perms).some((perm) => ids?.has(perm));
    });
    const hadChildren = new Set(pages.map((p) => p.parent_id).filter((id): id is string => id !== null));
    let kept = allowed;
    // Drop groups left empty, bottom-up (three levels at most, so a few passes suffice).
    for (let pass = 0; pass < 3; pass += 1) {
      const parents = new Set(kept.map((p) => p.parent_id));
      kept = kept.filter((p) => !hadChildren.has(p.id) || parents.has(p.id));
    }

    const menuBaseList: MenuSystem[] = systems.map((s) => ({
      id: s.id,
      appNo: s.app_no,
      appId: s.app_id,
      frontRoutingAddr: s.front_routing_addr,
      label: pickLocalised(s.label_i18n, language),
      sortNum: s.sort_num,
    }));
    const menuList: MenuPage[] = kept
      .map((p) => {
        const page: MenuPage = {
          id: p.id,
          path: p.path,
          name: p.name,
          title: pickLocalised(p.title_i18n, language),
          sortNum: p.sort_num,
          isFuncRight: p.is_func_right === 1,
          funcRightPerms: parseIds(p.func_right_perms),
          meta: { appNo: p.app_no, parentId: p.parent_id, isSide: p.is_side === 1 },
        };
        if (p.icon) page.meta.icon = p.icon;
        return page;
      })
      .sort((a, b) => a.sortNum - b.sortNum);
    return { menuBaseList: menuBaseList.sort((a, b) => a.sortNum - b.sortNum), menuList };
  }

  async addSystem(s: NewSystem): Promise<void> {
    await this.repo.insertSystem({
      id: s.id,
      app_no: s.appNo,
      app_id: s.appId,
      front_routing_addr: s.frontRoutingAddr,
      label_i18n: toLocalisedJson(s.label),
      sort_num: s.sortNum,
    });
  }

  async addPage(p: NewPage): Promise<void> {
    const perms = p.funcRightPerms ?? [];
    await this.repo.insertPage({
      id: p.id,
      app_no: p.appNo,
      parent_id: p.parentId,
      path: p.path,
      name: p.name,
      title_i18n: toLocalisedJson(p.title),
      sort_num: p.sortNum,
      is_func_right: perms.length > 0 ? 1 : 0,
      func_right_perms: JSON.stringify(perms),
      is_side: p.isSide === false ? 0 : 1,
      icon: p.icon ?? null,
    });
  }

  async grant(userId: string, appCode: string, ids: string[]): Promise<void> {
    await this.repo.putGrant({ user_id: userId, app_code: appCode, func_ids: JSON.stringify(ids) });
  }

  async hasSystems(): Promise<boolean> {
    return (await this.repo.systems()).length > 0;
  }

  async allSystemCodes(): Promise<string[]> {
    return (await this.repo.systems()).map((s) => s.app_no);
  }
}
