import type { Insertable, Kysely, Selectable, SelectQueryBuilder } from 'kysely';
import type { BackupLogsTable, DB } from '../../db/schema.ts';

export type BackupLogRecord = Selectable<BackupLogsTable>;

/** Inclusive bounds on backup_time (epoch ms); either may be missing. */
export interface BackupTimeRange {
  startTime?: number;
  endTime?: number;
}

export class BackupLogRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async insert(row: Insertable<BackupLogsTable>): Promise<void> {
    await this.db.insertInto('backup_logs').values(row).execute();
  }

  private within<O>(query: SelectQueryBuilder<DB, 'backup_logs', O>, range: BackupTimeRange): SelectQueryBuilder<DB, 'backup_logs', O> {
    let q = query;
    if (range.startTime !== undefined) q = q.where('backup_time', '>=', range.startTime);
    if (range.endTime !== undefined) q = q.where('backup_time', '<=', range.endTime);
    return q;
  }

  /** Newest first; rows of the same time in a fixed order so pages never overlap. */
  page(range: BackupTimeRange, offset: number, limit: number): Promise<BackupLogRecord[]> {
    return this.within(this.db.selectFrom('backup_logs').selectAll(), range)
      .orderBy('backup_time', 'desc')
      .orderBy('id', 'desc')
      .offset(offset)
      .limit(limit)
      .execute();
  }

  /** Rows of backups in `folder` whose retention has run out at `now`. */
  expired(folder: string, now: number): Promise<BackupLogRecord[]> {
    return this.db
      .selectFrom('backup_logs')
      .selectAll()
      .where('file_path', '=', folder)
      .where((eb) => eb(eb('backup_time', '+', eb('retention_day', '*', 86_400_000)), '<', now))
      .execute();
  }

  /** Whether a row names the backup file `name`. */
  async hasName(name: string): Promise<boolean> {
    return (await this.db.selectFrom('backup_logs').select('id').where('name', '=', name).executeTakeFirst()) !== undefined;
  }

  async remove(id: string): Promise<void> {
    await this.db.deleteFrom('backup_logs').where('id', '=', id).execute();
  }

  /** backup_time of the newest row; null when there is none. */
  async newestBackupTime(): Promise<number | null> {
    const row = await this.db.selectFrom('backup_logs').select((eb) => eb.fn.max('backup_time').as('newest')).executeTakeFirst();
    return row?.newest === null || row?.newest === undefined ? null : Number(row.newest);
  }

  async count(range: BackupTimeRange): Promise<number> {
    const row = await this.within(this.db.selectFrom('backup_logs').select((eb) => eb.fn.countAll<number | string>().as('n')), range).executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
