import type { BackupLogRow } from '@campus/contracts';
import { newId } from '../../lib/hash.ts';
import type { BackupLogRecord, BackupLogRepository, BackupTimeRange } from './backup-log-repository.ts';

export interface NewBackupLog {
  name: string;
  backupTime: number;
  filePath: string;
  addr: string;
  retentionDay: number;
  size: number;
  remarks?: string;
  /** When the entry was logged (the backup finished); now when not given. */
  logTime?: number;
}

function toRow(record: BackupLogRecord): BackupLogRow {
  return {
    id: record.id,
    name: record.name,
    backupTime: Number(record.backup_time),
    logTime: Number(record.created_at),
    filePath: record.file_path,
    addr: record.addr,
    retentionDay: Number(record.retention_day),
    size: Number(record.size),
    remarks: record.remarks,
  };
}

export interface BackupLogServiceDeps {
  repo: BackupLogRepository;
  now: () => number;
}

/** The backups this installation has taken (spec §3 "Backup log row"), for the Backup Logs viewer. */
export class BackupLogService {
  private readonly repo: BackupLogRepository;
  private readonly now: () => number;

  constructor(deps: BackupLogServiceDeps) {
    this.repo = deps.repo;
    this.now = deps.now;
  }

  async add(entry: NewBackupLog): Promise<string> {
    const id = newId();
    await this.repo.insert({
      id,
      name: entry.name,
      backup_time: entry.backupTime,
      file_path: entry.filePath,
      addr: entry.addr,
      retention_day: entry.retentionDay,
      size: entry.size,
      remarks: entry.remarks ?? '',
      created_at: entry.logTime ?? this.now(),
    });
    return id;
  }

  /** Backups in `folder` past their retention at `now`: their names and row ids. */
  async expired(folder: string, now: number): Promise<{ id: string; name: string }[]> {
    return (await this.repo.expired(folder, now)).map((record) => ({ id: record.id, name: record.name }));
  }

  /** When the newest backup of the log was taken (epoch ms); null before the first. */
  newestBackupTime(): Promise<number | null> {
    return this.repo.newestBackupTime();
  }

  /** Whether the log lists a backup file of this name. */
  isListed(name: string): Promise<boolean> {
    return this.repo.hasName(name);
  }

  remove(id: string): Promise<void> {
    return this.repo.remove(id);
  }

  /** One page (index from 1), newest first, and how many rows match the range in all. */
  async search(range: BackupTimeRange, index: number, size: number): Promise<{ rows: BackupLogRow[]; count: number }> {
    const [records, count] = await Promise.all([this.repo.page(range, (index - 1) * size, size), this.repo.count(range)]);
    return { rows: records.map(toRow), count };
  }
}
