// Loaded into a server process a test starts (node --import tsx --import this file): every package the process
// imports is written, one resolved URL a line, to the file IMPORT_LOG names. lazy-modules.test.ts reads it to tell
// which packages a server loaded.
import { register } from 'node:module';

if (process.env.IMPORT_LOG) register('./record-imports-hook.mjs', import.meta.url, { data: { file: process.env.IMPORT_LOG } });
