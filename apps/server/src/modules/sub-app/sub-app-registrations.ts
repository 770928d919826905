import type { Kysely } from 'kysely';
import { codes } from '@campus/contracts';
import type { LanguageCode, OperationAction, SubAppGrantRequest, SubAppManifest, SubAppRegistration, SubAppRevoke } from '@campus/contracts';
import { readChangeStamp } from '../../db/change-stamps.ts';
import type { DB } from '../../db/schema.ts';
import { refusingDuplicates } from '../../db/unique-violation.ts';
import { AppError } from '../../http/envelope.ts';
import { TimedCache } from '../../lib/timed-cache.ts';
import { entryOrigin } from '../../lib/sub-app-entry-url.ts';
import type { AccountService } from '../account/account-service.ts';
import { MenuRepository } from '../menu/menu-repository.ts';
import { MenuService } from '../menu/menu-service.ts';
import type { MenuCatalogue } from '../menu/menu-catalogue.ts';
import { parseIds } from '../menu/menu-catalogue.ts';
import { installationWide } from '../operation-log/operation-log-service.ts';
import type { OperationLogService } from '../operation-log/operation-log-service.ts';
import { checkManifest } from './sub-app-manifest.ts';
import { SubAppRegistrationRepository } from './sub-app-registration-repository.ts';
import type { RegistrationRow } from './sub-app-registration-repository.ts';

/**
 * Who registers, removes, grants or revokes: a signed-in system administrator, or the operator's CLI on the server
 * (tenantCode installationWide). `installation`: an installation administrator or the operator, who act for every
 * tenant; otherwise a tenant's system administrator, who acts within his own tenant only.
 */
export interface SubAppActor {
  tenantCode: string;
  account: string;
  clientIp: string;
  installation: boolean;
}

export interface SubAppRegistrationsDeps {
  db: Kysely<DB>;
  menu: MenuService;
  /** The catalogue the menu service reads: a registration's transaction writes it through a menu service of its own. */
  catalogue: MenuCatalogue;
  account: AccountService;
  logs: OperationLogService;
  now: () => number;
  /** SUBAPP_HTTP_HOSTS: hosts a sub-system may load from over plain http besides loopback. */
  httpHosts: readonly string[];
}

/**
 * Sub-systems of other teams, registered by an operator without a change of the product or a restart: their
 * system and menus go into the catalogue beside the built-in ones, and this area keeps where each is loaded from
 * and which origins its scripts come from (for the content security policy). Built-in systems are the catalogue's
 * systems without a registration row.
 */
/** The longest the content policy of a reply waits for a reload of the registrations. */
const originsWaitMs = 250;

export class SubAppRegistrations {
  private readonly repo: SubAppRegistrationRepository;
  /** The rows with the catalogue's change stamp read before them (null: unknown). */
  private readonly cache: TimedCache<{ stamp: number | null; rows: RegistrationRow[] }>;
  private lastOrigins: { rows: RegistrationRow[]; origins: readonly string[] } | null = null;

  constructor(private readonly deps: SubAppRegistrationsDeps) {
    this.repo = new SubAppRegistrationRepository(deps.db);
    this.cache = new TimedCache(async () => {
      const stamp = await readChangeStamp(deps.db, 'catalogue');
      return { stamp, rows: await this.repo.all() };
    }, deps.now);
  }

  /**
   * Entry URL by system code, for the registered sub-systems: for a signed-in call that read the catalogue's change
   * stamp `stamp`, when given; else within the cache time.
   */
  async entries(stamp?: number): Promise<ReadonlyMap<string, string>> {
    const { rows } = stamp === undefined ? await this.cache.get() : await this.cache.getAt(stamp, (kept) => kept.stamp);
    return new Map(rows.map((row) => [row.app_no, row.entry]));
  }

  /**
   * The origins the registered sub-systems load from (their entries' and their script origins), once each. When the
   * database cannot be read, or not within a moment, the last ones read (none before the first read): every reply
   * carries the content policy, /healthz's too, so it never waits long on a database that does not answer.
   */
  async origins(): Promise<readonly string[]> {
    let rows: RegistrationRow[];
    try {
      rows = (await this.cache.getWithin(originsWaitMs)).rows;
    } catch {
      rows = [];
    }
    return this.originsOf(rows);
  }

  /** The origins as origins() answers them, without waiting: null when the rows are not fresh (call origins()). */
  originsNow(): readonly string[] | null {
    const fresh = this.cache.fresh();
    return fresh ? this.originsOf(fresh.rows) : null;
  }

  /** The same array while the rows are the same, so the content policy is rebuilt only on a change. */
  private originsOf(rows: RegistrationRow[]): readonly string[] {
    if (rows !== this.lastOrigins?.rows) {
      // a wildcard stored before registrations refused it (issue 46) would open the policy of every page
      const origins = rows.flatMap((row) => [entryOrigin(row.entry), ...parseIds(row.script_origins)]).filter((o): o is string => o !== null && !o.includes('*'));
      this.lastOrigins = { rows, origins: [...new Set(origins)] };
    }
    return this.lastOrigins.origins;
  }

  async list(): Promise<SubAppRegistration[]> {
    const [{ rows }, overview] = await Promise.all([this.cache.get(), this.deps.menu.catalogueOverview()]);
    const systems = new Map(overview.systems.map((s) => [s.appNo, s]));
    return rows.flatMap((row) => {
      const system = systems.get(row.app_no);
      if (!system) return [];
      return [{
        appNo: row.app_no,
        label: system.label,
        basePath: system.frontRoutingAddr,
        entry: row.entry,
        scriptOrigins: parseIds(row.script_origins),
        functionCodes: parseIds(row.function_codes),
        pageCount: overview.pages.filter((p) => p.appNo === row.app_no).length,
        registeredAt: Number(row.registered_at),
        registeredBy: row.registered_by,
      }];
    });
  }

  /**
   * Registers a sub-system (or replaces its registration: `manifest.replace`), all or nothing: the system, its pages,
   * where it loads from, and every system administrator's grant of it with all its function codes. Grants of other
   * accounts survive a replacement.
   */
  async register(manifest: SubAppManifest, actor: SubAppActor, language: LanguageCode): Promise<SubAppRegistration> {
    // the registration row is read after the catalogue: a system a registration committed meanwhile is then seen
    // with its row, never taken for a built-in one
    const overview = await this.deps.menu.catalogueOverview();
    const registered = await this.repo.byAppNo(manifest.appNo);
    const existing = overview.systems.find((s) => s.appNo === manifest.appNo);
    if (existing && !registered) throw new AppError(codes.subAppBuiltIn, { status: 409, values: { appNo: manifest.appNo } });
    if (existing && !manifest.replace) throw new AppError(codes.subAppCodeTaken, { status: 409, values: { appNo: manifest.appNo, name: existing.label[language] } });
    const others = {
      systems: overview.systems.filter((s) => s.appNo !== manifest.appNo),
      pages: overview.pages.filter((p) => p.appNo !== manifest.appNo),
    };
    let checked;
    try {
      checked = checkManifest(manifest, others, language, this.deps.httpHosts);
    } catch (error) {
      await this.logInstallationWide(actor, 'sub-app-register', 'failure', `${manifest.appNo}: code ${error instanceof AppError ? error.code : 'unknown'}`);
      throw error;
    }
    const sortNum = existing?.sortNum ?? Math.max(0, ...overview.systems.map((s) => s.sortNum)) + 10;
    let pageSort = Math.max(0, ...others.pages.map((p) => p.sortNum));
    const admins = await this.deps.account.systemAdminIds();
    const now = this.deps.now();
    const row: RegistrationRow = {
      app_no: checked.appNo,
      entry: checked.entry,
      script_origins: JSON.stringify(checked.scriptOrigins),
      function_codes: JSON.stringify(checked.functionCodes),
      registered_at: now,
      registered_by: actor.account,
    };
    const conflict = () => new AppError(codes.subAppCodeTaken, { status: 409, values: { appNo: checked.appNo, name: checked.label[language] } });
    // two registrations at once: the catalogue's unique system code and page ids let one through
    await refusingDuplicates(() => this.deps.db.transaction().execute(async (trx) => {
      const menu = new MenuService({ repo: new MenuRepository(trx), catalogue: this.deps.catalogue });
      const repo = new SubAppRegistrationRepository(trx);
      const kept = existing ? await menu.holdersOf(checked.appNo) : [];
      if (existing) {
        await menu.removeSystem(checked.appNo);
        await repo.delete(checked.appNo);
      }
      await menu.addSystem({ id: `sys-${checked.appNo}`, appNo: checked.appNo, appId: checked.appNo, frontRoutingAddr: checked.basePath, label: checked.label, sortNum });
      for (const page of checked.pages) {
        pageSort += 10;
        await menu.addPage({
          id: page.id,
          appNo: checked.appNo,
          parentId: page.parentId ?? null,
          path: page.path,
          name: page.name,
          title: page.title,
          sortNum: pageSort,
          funcRightPerms: page.funcRightPerms,
        });
      }
      await repo.insert(row);
      // function codes the new version no longer has are dropped from the kept grants
      for (const holder of kept) await menu.grant(holder.userId, checked.appNo, holder.ids.filter((id) => checked.functionCodes.includes(id)));
      for (const admin of admins) await menu.grant(admin, checked.appNo, checked.functionCodes);
    }), conflict);
    this.changed();
    await this.logInstallationWide(actor, 'sub-app-register', 'success', `${checked.appNo} at /${checked.basePath}/ from ${checked.entry}${existing ? ' (replaced)' : ''}`);
    const listed = (await this.list()).find((r) => r.appNo === checked.appNo);
    if (!listed) throw new AppError(codes.internalError, { status: 500 });
    return listed;
  }

  /** Removes a registered sub-system with its menus and grants; a built-in system is refused. */
  async remove(appNo: string, actor: SubAppActor): Promise<void> {
    await this.requireRegistered(appNo);
    await this.deps.db.transaction().execute(async (trx) => {
      await new MenuService({ repo: new MenuRepository(trx), catalogue: this.deps.catalogue }).removeSystem(appNo);
      await new SubAppRegistrationRepository(trx).delete(appNo);
    });
    this.changed();
    await this.logInstallationWide(actor, 'sub-app-remove', 'success', appNo);
  }

  /**
   * Gives one account a registered sub-system, with the function codes named (default: all of the sub-system's):
   * a tenant's system administrator in his own tenant only, an installation administrator in any.
   */
  async grant(request: SubAppGrantRequest, actor: SubAppActor): Promise<void> {
    this.requireScope(actor, request.tenantCode);
    const row = await this.requireRegistered(request.appNo);
    const all = parseIds(row.function_codes);
    const ids = request.functionCodes ?? all;
    const unknown = ids.find((id) => !all.includes(id));
    if (unknown !== undefined) throw new AppError(codes.subAppFunctionCodeUnknown, { status: 400, values: { code: unknown } });
    const user = await this.requireAccount(request.tenantCode, request.account);
    await this.deps.menu.grant(user.id, request.appNo, [...new Set(ids)]);
    await this.logGrant(actor, request.tenantCode, 'sub-app-grant', `${request.appNo} to ${request.tenantCode}/${request.account}`);
  }

  /** Takes a registered sub-system from one account, within the same bounds as a grant. */
  async revoke(request: SubAppRevoke, actor: SubAppActor): Promise<void> {
    this.requireScope(actor, request.tenantCode);
    await this.requireRegistered(request.appNo);
    const user = await this.requireAccount(request.tenantCode, request.account);
    const held = await this.deps.menu.revoke(user.id, request.appNo);
    await this.logGrant(actor, request.tenantCode, 'sub-app-revoke', `${request.appNo} from ${request.tenantCode}/${request.account}${held ? '' : ' (did not hold it)'}`);
  }

  /** A tenant's system administrator grants and revokes within his own tenant: the rest of the installation is not his. */
  private requireScope(actor: SubAppActor, tenantCode: string): void {
    if (!actor.installation && actor.tenantCode !== tenantCode) throw new AppError(codes.grantOutsideTenant, { status: 403, values: { own: actor.tenantCode, tenantCode } });
  }

  private async requireAccount(tenantCode: string, account: string) {
    if (!(await this.deps.account.tenant(tenantCode))) throw new AppError(codes.tenantUnknown, { status: 404 });
    const user = await this.deps.account.findUser(tenantCode, account);
    if (!user) throw new AppError(codes.accountUnknown, { status: 404, values: { tenantCode, account } });
    return user;
  }

  private async requireRegistered(appNo: string): Promise<RegistrationRow> {
    const row = await this.repo.byAppNo(appNo);
    if (row) return row;
    const builtIn = (await this.deps.menu.catalogueSystems()).some((s) => s.appNo === appNo);
    throw builtIn ? new AppError(codes.subAppBuiltIn, { status: 409, values: { appNo } }) : new AppError(codes.subAppNotRegistered, { status: 404, values: { appNo } });
  }

  private changed(): void {
    this.cache.invalidate();
    this.deps.menu.invalidateCatalogue();
  }

  /** What every tenant is served: a registration, its replacement or its removal (and grants from outside a tenant). */
  private logInstallationWide(actor: SubAppActor, action: OperationAction, result: 'success' | 'failure', detail: string): Promise<void> {
    return this.deps.logs.record({ tenantCode: installationWide, account: actor.account, clientIp: actor.clientIp, action, result, detail });
  }

  /**
   * A grant or revoke is in the log of the tenant it is in; made from outside that tenant (an installation
   * administrator of another tenant, the operator's CLI) it is an installation-wide act as well.
   */
  private async logGrant(actor: SubAppActor, tenantCode: string, action: 'sub-app-grant' | 'sub-app-revoke', detail: string): Promise<void> {
    const entry = { account: actor.account, clientIp: actor.clientIp, action, result: 'success' as const };
    if (actor.tenantCode === tenantCode) {
      await this.deps.logs.record({ ...entry, tenantCode, detail });
      return;
    }
    // the account alone would read as one of the tenant's own: the actor's tenant goes with it
    const by = actor.tenantCode === installationWide ? detail : `${detail} (by ${actor.tenantCode}/${actor.account})`;
    await this.deps.logs.record({ ...entry, tenantCode, detail: by });
    await this.logInstallationWide(actor, action, 'success', by);
  }
}
