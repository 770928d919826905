import fs from 'node:fs';

/** Folders the server makes for its data: only the service's own user may list or enter them. */
export const privateDirMode = 0o700;
/** Files that hold the installation's data or secrets: only the service's own user may read them. */
export const privateFileMode = 0o600;

/** Makes `dir` (and any missing parent) for the owner only; a folder that exists keeps the mode its operator gave it. */
export function makePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: privateDirMode });
}

/**
 * Creates `file` empty for the owner only when it is missing, and takes group and other rights away from one that
 * exists (an installation made before this rule): SQLite gives its -wal and -shm files the database file's mode.
 */
export function makePrivateFile(file: string): void {
  try {
    fs.closeSync(fs.openSync(file, 'wx', privateFileMode));
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // An existing file is never opened here: it may be a database this process has open, and closing any descriptor
  // of a file drops every POSIX lock the process holds on it, SQLite's too. Another process closing the file would
  // then think itself its last user and remove the WAL from under this process's connection.
  if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, privateFileMode);
}
