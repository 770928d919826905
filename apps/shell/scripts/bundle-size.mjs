// Sums the gzip size of what the browser loads for the login page: the entry chunk, the login route
// chunk, their static imports, and their CSS. Run after `vite build` (it reads dist/.vite/manifest.json).
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const dist = join(import.meta.dirname, '..', 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
const route = process.argv[2] ?? 'src/features/auth/login-page.tsx';

const files = new Set();
function visit(key) {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const css of chunk.css ?? []) files.add(css);
  for (const child of chunk.imports ?? []) visit(child);
}
visit('index.html');
visit(route);

let js = 0;
let css = 0;
for (const file of files) {
  const size = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
  if (file.endsWith('.css')) css += size;
  else js += size;
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`${route}: ${files.size} files, JS ${kb(js)} + CSS ${kb(css)} = ${kb(js + css)} gzip`);
