// The resolve hook of record-imports.mjs (it runs on the module loader's own thread).
import { appendFileSync } from 'node:fs';

let file = null;

export function initialize(data) {
  file = data.file;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (file && resolved.url.includes('/node_modules/')) appendFileSync(file, `${resolved.url}\n`);
  return resolved;
}
