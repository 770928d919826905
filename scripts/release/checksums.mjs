// SHA256SUMS (sha256sum -c format) of every file of the release folder, and the archive's own .sha256.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, lstatSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

function filesOf(dir, prefix = '') {
  const files = [];
  for (const entry of readdirSync(dir).sort()) {
    const full = path.join(dir, entry);
    const relative = prefix ? `${prefix}/${entry}` : entry;
    const stat = lstatSync(full);
    if (stat.isDirectory()) files.push(...filesOf(full, relative));
    else if (stat.isFile()) files.push(relative);
  }
  return files;
}

export function writeSha256Sums(releaseDir) {
  const lines = filesOf(releaseDir).filter((file) => file !== 'SHA256SUMS').map((file) => `${sha256(path.join(releaseDir, file))}  ${file}`);
  writeFileSync(path.join(releaseDir, 'SHA256SUMS'), `${lines.join('\n')}\n`);
}

export function writeArchiveSum(archive) {
  writeFileSync(`${archive}.sha256`, `${sha256(archive)}  ${path.basename(archive)}\n`);
}
