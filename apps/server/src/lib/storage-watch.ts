import fs from 'node:fs';
import path from 'node:path';

/** Below this much free space in the data folder the server is not ready (a write would soon fail). */
const minFreeBytes = 16 * 1024 * 1024;
const probeName = '.ready-probe';

let simulatedFull = false;

/**
 * The test seam (NODE_ENV=test only, like lib/pause-points.ts): makes the storage report full, as a disk that
 * filled up would. Refused anywhere else, so production can never be made to look full.
 */
export function simulateStorageFull(on: boolean): void {
  if (process.env.NODE_ENV !== 'test') throw new Error('simulateStorageFull is a test seam (NODE_ENV=test only)');
  simulatedFull = on;
}

/** Writes and removes a probe file in `folder`: null when it worked, else the error (ENOSPC, EACCES, EROFS, …). */
export function probeWrite(folder: string): NodeJS.ErrnoException | null {
  const probe = path.join(folder, `${probeName}-${process.pid}`);
  try {
    fs.writeFileSync(probe, '', { mode: 0o600 });
    fs.rmSync(probe, { force: true });
    return null;
  } catch (error) {
    return error as NodeJS.ErrnoException;
  }
}

export interface StorageStatus {
  /** null when a file can be written in the data folder; else why not. */
  notWritable: string | null;
  /** null when space is left; else what is full. */
  full: string | null;
}

/**
 * Whether the data folder takes writes. A storage-full error of a request (database or file) marks the storage
 * full and is logged once, with its path; the storage is ready again once a probe write succeeds and fs.statfs
 * finds free space (checked by /readyz and /healthz, never per request).
 */
export class StorageWatch {
  private fullAt: string | null = null;

  constructor(
    readonly dataDir: string,
    private readonly log: (where: string) => void,
    /** Where the database writes (the SQLite file, or the PostgreSQL database without its password): a full database's where. */
    private readonly databaseWhere: string,
  ) {}

  /** A write failed for lack of space at `where` (a file; null: the database): logged on the first only. */
  reportFull(where: string | null): void {
    const at = where ?? this.databaseWhere;
    if (this.fullAt === null) this.log(at);
    this.fullAt = at;
  }

  async status(): Promise<StorageStatus> {
    if (simulatedFull) return { notWritable: null, full: `${this.dataDir} (simulated by a test)` };
    const probe = path.join(this.dataDir, probeName);
    try {
      await fs.promises.writeFile(probe, 'ok', { mode: 0o600 });
      await fs.promises.rm(probe, { force: true });
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'ENOSPC') return { notWritable: null, full: this.fullAt ?? this.dataDir };
      return { notWritable: `${this.dataDir}: ${error instanceof Error ? error.message : String(error)}`, full: this.fullAt };
    }
    try {
      const stats = await fs.promises.statfs(this.dataDir);
      const free = stats.bavail * stats.bsize;
      if (free < minFreeBytes) return { notWritable: null, full: `${this.dataDir} (${free} bytes free)` };
    } catch {
      // statfs unsupported here: the probe write is the evidence
    }
    this.fullAt = null;
    return { notWritable: null, full: null };
  }
}
