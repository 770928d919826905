// Writes brotli (.br) and gzip (.gz) copies beside every compressible file of 1 KiB or more in the given
// build folders, so the server sends compressed bytes without compressing on each request (issue: the
// login page's 16 files travelled as 491 KB instead of about 160 KB). Run by `npm run build`.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const compressibleExtensions = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.map', '.wasm', '.ico', '.xml']);
export const minimumBytes = 1024;

function* filesIn(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesIn(full);
    else if (entry.isFile()) yield full;
  }
}

/** Compresses the folder's files; answers what was written: { files, bytes, brotliBytes, gzipBytes }. */
export function compressFolder(dir) {
  const totals = { files: 0, bytes: 0, brotliBytes: 0, gzipBytes: 0 };
  for (const file of filesIn(dir)) {
    if (!compressibleExtensions.has(path.extname(file).toLowerCase())) continue;
    const size = statSync(file).size;
    if (size < minimumBytes) continue;
    const bytes = readFileSync(file);
    const brotli = brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    });
    const gzip = gzipSync(bytes, { level: 9 });
    // a copy that is not smaller would only cost a lookup: left out
    if (brotli.length < bytes.length) writeFileSync(`${file}.br`, brotli);
    if (gzip.length < bytes.length) writeFileSync(`${file}.gz`, gzip);
    totals.files += 1;
    totals.bytes += bytes.length;
    totals.brotliBytes += Math.min(brotli.length, bytes.length);
    totals.gzipBytes += Math.min(gzip.length, bytes.length);
  }
  return totals;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dirs = process.argv.slice(2);
  if (dirs.length === 0) {
    console.error('usage: node scripts/compress-assets.mjs <build folder> …');
    process.exit(2);
  }
  for (const dir of dirs) {
    const t = compressFolder(dir);
    const kb = (n) => `${(n / 1024).toFixed(0)} KB`;
    console.log(`${dir}: ${t.files} files, ${kb(t.bytes)} → brotli ${kb(t.brotliBytes)}, gzip ${kb(t.gzipBytes)}`);
  }
}
