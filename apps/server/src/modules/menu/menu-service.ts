import type { LanguageCode, Localised, MenuData, MenuPage, MenuSystem, PermissionEntry } from '@campus/contracts';
import type { ChangeStamps } from '../../db/change-stamps.ts';
import { toLocalisedJson } from '../../lib/localised.ts';
import { isSameOriginPath } from '../../lib/same-origin-path.ts';
import { StampedCache } from '../../lib/stamped-cache.ts';
import type { Catalogue, MenuCatalogue } from './menu-catalogue.ts';
import { parseIds } from './menu-catalogue.ts';
import type { GrantRow, MenuRepository } from './menu-repository.ts';

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
  /** Report pages: a same-origin backend page path (starting with a single '/') shown in a frame. */
  frameUrl?: string;
}

/** The enterprise-data system (appCode): its holders see the home figures; it holds the operation log page. */
export const enterpriseDataSystem = 'qy';

/** How many built menus (per language and set of grants) are kept; users share few distinct sets. */
const builtMenuLimit = 256;
/** How many users' grants are kept between their calls. */
const cachedGrantsLimit = 10_000;

/**
 * Whose grants a question is about: a signed-in caller with the change stamps read with its session (its grants
 * and the catalogue are then read again only when a stamp moved), or anyone else with stamps null (read now).
 */
export interface GrantHolder {
  userId: string;
  stamps: ChangeStamps | null;
}

/** A user's permission list cut by a catalogue, with the key of its built menus and those it was answered with. */
interface Permissions {
  catalogue: Catalogue;
  list: PermissionEntry[];
  key: string;
  /** By language: a user's next call finds its menu here, without building the shared key again. */
  menus: Map<LanguageCode, MenuData>;
}

export interface MenuServiceDeps {
  repo: MenuRepository;
  catalogue: MenuCatalogue;
}

/** Systems, pages and the permission grants of users. */
export class MenuService {
  private readonly built = new Map<string, MenuData>();
  private builtFor: Catalogue | null = null;
  private readonly grantsByUser = new StampedCache<string, GrantRow[]>(cachedGrantsLimit);
  /** The permission list of each grants array read (and kept) with the catalogue it was cut by. */
  private readonly cut = new WeakMap<GrantRow[], Permissions>();

  private readonly repo: MenuRepository;
  private readonly catalogue: MenuCatalogue;

  constructor(deps: MenuServiceDeps) {
    this.repo = deps.repo;
    this.catalogue = deps.catalogue;
  }

  async permissions(holder: GrantHolder): Promise<PermissionEntry[]> {
    return (await this.permissionsOf(holder)).list;
  }

  private async permissionsOf({ userId, stamps }: GrantHolder): Promise<Permissions> {
    const [grants, catalogue] = await Promise.all([
      stamps ? this.grantsByUser.get(userId, stamps.grants, () => this.repo.grants(userId)) : this.repo.grants(userId),
      stamps ? this.catalogue.getAt(stamps.catalogue) : this.catalogue.get(),
    ]);
    const kept = this.cut.get(grants);
    if (kept?.catalogue === catalogue) return kept;
    const list = permissionsFrom(grants, catalogue);
    const cut = { catalogue, list, key: JSON.stringify(list), menus: new Map<LanguageCode, MenuData>() };
    this.cut.set(grants, cut);
    return cut;
  }

  /**
   * The systems of the user's permission list and their pages, in `language`. A page with isFuncRight
   * is left out unless the user holds one of its funcRightPerms in that system; a group whose pages
   * were all left out goes too. Both lists ascend by sortNum. Users with the same grants get the
   * same menu, so it is built once per catalogue version, language and set of grants.
   */
  async menus(holder: GrantHolder, language: LanguageCode): Promise<MenuData> {
    const permissions = await this.permissionsOf(holder);
    const answered = permissions.menus.get(language);
    if (answered) return answered;
    if (this.builtFor !== permissions.catalogue || this.built.size >= builtMenuLimit) {
      this.built.clear();
      this.builtFor = permissions.catalogue;
    }
    const key = `${language}\n${permissions.key}`;
    let menu = this.built.get(key);
    if (!menu) {
      menu = buildMenu(permissions.catalogue, permissions.list, language);
      this.built.set(key, menu);
    }
    permissions.menus.set(language, menu);
    return menu;
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
    this.catalogue.invalidate();
  }

  async addPage(p: NewPage): Promise<void> {
    if (p.frameUrl !== undefined && !isSameOriginPath(p.frameUrl)) {
      throw new Error(`Menu page ${p.id}: frameUrl must be a path on this server ('/…'), got ${JSON.stringify(p.frameUrl)}`);
    }
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
      frame_url: p.frameUrl ?? null,
    });
    this.catalogue.invalidate();
  }

  /** Removes a system, its pages and every grant of it. */
  async removeSystem(appNo: string): Promise<void> {
    await this.repo.deleteSystem(appNo);
    this.catalogue.invalidate();
  }

  /** Reads the catalogue anew at the next call (after a change committed by a transaction of another service). */
  invalidateCatalogue(): void {
    this.catalogue.invalidate();
  }

  /** Every system of the catalogue with its labels and every page, ascending by sortNum (what a registration checks against). */
  async catalogueOverview(): Promise<{
    systems: { id: string; appNo: string; frontRoutingAddr: string; label: Localised; sortNum: number }[];
    pages: { id: string; appNo: string; path: string; sortNum: number }[];
  }> {
    const catalogue = await this.catalogue.get();
    return {
      systems: catalogue.systems.map((s) => ({ id: s.row.id, appNo: s.row.app_no, frontRoutingAddr: s.row.front_routing_addr, label: s.label, sortNum: s.row.sort_num })),
      pages: catalogue.pages.map((p) => ({ id: p.row.id, appNo: p.row.app_no, path: p.row.path, sortNum: p.row.sort_num })),
    };
  }

  async grant(userId: string, appCode: string, ids: string[]): Promise<void> {
    await this.repo.putGrant({ user_id: userId, app_code: appCode, func_ids: JSON.stringify(ids) });
  }

  /** Takes system `appCode` from the user; false when he did not hold it. */
  revoke(userId: string, appCode: string): Promise<boolean> {
    return this.repo.deleteGrant(userId, appCode);
  }

  /** Who holds system `appCode`, with which function codes. */
  async holdersOf(appCode: string): Promise<{ userId: string; ids: string[] }[]> {
    return (await this.repo.grantsOfSystem(appCode)).map((g) => ({ userId: g.user_id, ids: parseIds(g.func_ids) }));
  }

  /** Whether the user's permission list holds system `appCode` and, when given, function code `funcId` in it. */
  async holds(holder: GrantHolder, appCode: string, funcId?: string): Promise<boolean> {
    const entry = (await this.permissions(holder)).find((p) => p.appCode === appCode);
    return entry !== undefined && (funcId === undefined || entry.ids.includes(funcId));
  }

  /** Every system of the catalogue (whoever holds it), ascending by sortNum; for a call that read change stamp `stamp`, when given. */
  async catalogueSystems(stamp?: number): Promise<{ appNo: string; frontRoutingAddr: string }[]> {
    return (await (stamp === undefined ? this.catalogue.get() : this.catalogue.getAt(stamp))).systems.map((s) => ({ appNo: s.row.app_no, frontRoutingAddr: s.row.front_routing_addr }));
  }

  /** Every system of the catalogue as an application a licence may cover (AppList), in catalogue order. */
  async catalogueApps(language: LanguageCode): Promise<{ appId: string; appName: string }[]> {
    return (await this.catalogue.get()).systems.map((s) => ({ appId: s.row.app_id, appName: s.label[language] }));
  }

  async hasSystems(): Promise<boolean> {
    return (await this.catalogue.get()).systems.length > 0;
  }

  async allSystemCodes(): Promise<string[]> {
    return (await this.catalogue.get()).systems.map((s) => s.row.app_no);
  }
}

function permissionsFrom(grants: GrantRow[], catalogue: Catalogue): PermissionEntry[] {
  const order = new Map(catalogue.systems.map((s, i) => [s.row.app_no, i]));
  return grants
    .filter((g) => order.has(g.app_code))
    .sort((a, b) => (order.get(a.app_code) ?? 0) - (order.get(b.app_code) ?? 0))
    .map((g) => ({ appCode: g.app_code, ids: parseIds(g.func_ids) }));
}

function buildMenu(catalogue: Catalogue, permissions: PermissionEntry[], language: LanguageCode): MenuData {
  const held = new Map(permissions.map((p) => [p.appCode, new Set(p.ids)]));
  const systems = catalogue.systems.filter((s) => held.has(s.row.app_no));
  const pages = catalogue.pages.filter((p) => held.has(p.row.app_no));

  const allowed = pages.filter((p) => {
    if (p.row.is_func_right !== 1) return true;
    const ids = held.get(p.row.app_no);
    return p.funcRightPerms.some((perm) => ids?.has(perm));
  });
  const hadChildren = new Set(pages.map((p) => p.row.parent_id).filter((id): id is string => id !== null));
  let kept = allowed;
  // Drop groups left empty, bottom-up (three levels at most, so a few passes suffice).
  for (let pass = 0; pass < 3; pass += 1) {
    const parents = new Set(kept.map((p) => p.row.parent_id));
    kept = kept.filter((p) => !hadChildren.has(p.row.id) || parents.has(p.row.id));
  }

  const menuBaseList: MenuSystem[] = systems.map(({ row, label }) => ({
    id: row.id,
    appNo: row.app_no,
    appId: row.app_id,
    frontRoutingAddr: row.front_routing_addr,
    label: label[language],
    sortNum: row.sort_num,
  }));
  const menuList: MenuPage[] = kept.map(({ row, title, funcRightPerms }) => {
    const page: MenuPage = {
      id: row.id,
      path: row.path,
      name: row.name,
      title: title[language],
      sortNum: row.sort_num,
      isFuncRight: row.is_func_right === 1,
      funcRightPerms,
      meta: { appNo: row.app_no, parentId: row.parent_id, isSide: row.is_side === 1 },
    };
    if (row.icon) page.meta.icon = row.icon;
    if (row.frame_url) page.meta.frameUrl = row.frame_url;
    return page;
  });
  return { menuBaseList, menuList };
}
