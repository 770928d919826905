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
  fs.closeSync(fs.openSync(file, 'a', privateFileMode));
  if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, privateFileMode);
}
