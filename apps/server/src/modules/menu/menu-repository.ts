import type { Insertable, Kysely, Selectable } from 'kysely';
import { readChangeStamp } from '../../db/change-stamps.ts';
import type { DB, MenuPagesTable, MenuSystemsTable, PermissionGrantsTable } from '../../db/schema.ts';

export type SystemRow = Selectable<MenuSystemsTable>;
export type PageRow = Selectable<MenuPagesTable>;
export type GrantRow = Selectable<PermissionGrantsTable>;

export class MenuRepository {
  constructor(private readonly db: Kysely<DB>) {}

  systems(): Promise<SystemRow[]> {
    return this.db.selectFrom('menu_systems').selectAll().orderBy('sort_num').orderBy('id').execute();
  }

  pages(): Promise<PageRow[]> {
    return this.db.selectFrom('menu_pages').selectAll().orderBy('sort_num').orderBy('id').execute();
  }

  /** The catalogue's change stamp (db/change-stamps.ts); null without the stamps' row. */
  catalogueStamp(): Promise<number | null> {
    return readChangeStamp(this.db, 'catalogue');
  }

  grants(userId: string): Promise<GrantRow[]> {
    return this.db.selectFrom('permission_grants').selectAll().where('user_id', '=', userId).execute();
  }

  grantsOfSystem(appCode: string): Promise<GrantRow[]> {
    return this.db.selectFrom('permission_grants').selectAll().where('app_code', '=', appCode).execute();
  }

  async insertSystem(row: Insertable<MenuSystemsTable>): Promise<void> {
    await this.db.insertInto('menu_systems').values(row).execute();
  }

  async insertPage(row: Insertable<MenuPagesTable>): Promise<void> {
    await this.db.insertInto('menu_pages').values(row).execute();
  }

  async putGrant(row: Insertable<PermissionGrantsTable>): Promise<void> {
    await this.db
      .insertInto('permission_grants')
      .values(row)
      .onConflict((oc) => oc.columns(['user_id', 'app_code']).doUpdateSet({ func_ids: row.func_ids }))
      .execute();
  }

  /** True when the user held the system. */
  async deleteGrant(userId: string, appCode: string): Promise<boolean> {
    const result = await this.db.deleteFrom('permission_grants').where('user_id', '=', userId).where('app_code', '=', appCode).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** A system with its pages and every grant of it. */
  async deleteSystem(appNo: string): Promise<void> {
    await this.db.deleteFrom('menu_pages').where('app_no', '=', appNo).execute();
    await this.db.deleteFrom('permission_grants').where('app_code', '=', appNo).execute();
    await this.db.deleteFrom('menu_systems').where('app_no', '=', appNo).execute();
  }
}
