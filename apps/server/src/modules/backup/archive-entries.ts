import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { BackupError } from './backup-archive.ts';

export type EntryKind = 'file' | 'folder' | 'symbolic link' | 'hard link' | 'device' | 'named pipe' | 'other entry';

export interface ArchiveEntry {
  kind: EntryKind;
  /** The member's path as tar lists it (./ taken off). */
  name: string;
}

const kindOfMark: Record<string, EntryKind> = { '-': 'file', d: 'folder', l: 'symbolic link', h: 'hard link', c: 'device', b: 'device', p: 'named pipe' };

/**
 * Every member of a .tar.gz with its kind, from GNU tar's verbose listing (`-rw-r--r-- 0/0 3 2026-01-01 00:00 ./a`;
 * a link adds ` -> target` or ` link to target`). Names are listed escaped, so each member is one line.
 */
export function archiveEntries(archive: string): Promise<ArchiveEntry[]> {
  return new Promise((resolve, reject) => {
    // LC_ALL=C: the listing's "link to" is translated in other languages
    const child = spawn('tar', ['--list', '--verbose', '--numeric-owner', '--quoting-style=escape', '-zf', archive], { env: { ...process.env, LC_ALL: 'C' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2_000)));
    child.on('error', (error: NodeJS.ErrnoException) => reject(new BackupError(error.code === 'ENOENT' ? 'tar is not installed (not found on PATH)' : `tar could not run: ${error.message}`)));
    child.on('exit', (code, signal) => {
      if (code !== 0) return reject(new BackupError(`tar failed (${signal ?? `exit ${code}`}): ${stderr.trim() || 'no message'}`));
      const entries = stdout
        .split('\n')
        .filter((line) => line !== '')
        .map((line): ArchiveEntry => {
          const kind = kindOfMark[line[0] ?? ''] ?? 'other entry';
          // mode, owner, size, date, time, then the name
          const rest = line.replace(/^(\S+\s+){5}/, '');
          const name = (kind === 'symbolic link' ? rest.split(' -> ')[0] : kind === 'hard link' ? rest.split(' link to ')[0] : rest) ?? rest;
          return { kind, name: name.replace(/^\.\//, '').replace(/\/$/, '') };
        });
      resolve(entries);
    });
  });
}

/** What under `root` is neither a regular file of one name nor a folder (lstat: a link is never followed). */
export function strayEntries(root: string): string[] {
  const stray: string[] = [];
  const walk = (folder: string) => {
    for (const name of fs.readdirSync(folder)) {
      const full = path.join(folder, name);
      const stat = fs.lstatSync(full);
      const relative = path.relative(root, full).split(path.sep).join('/');
      if (stat.isDirectory()) walk(full);
      else if (!stat.isFile() || stat.nlink > 1) stray.push(relative);
    }
  };
  walk(root);
  return stray.sort();
}
