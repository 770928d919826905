// Loaded into a server process that a benchmark measures (node --expose-gc --import this file): on SIGUSR2 it runs
// a full garbage collection and writes process.memoryUsage() to the file MEMORY_PROBE_FILE names. The benchmark then
// compares what the process keeps, not where its collector happened to be: a node's RSS read at a random moment
// under load swings by a fifth with the collector alone.
import { renameSync, writeFileSync } from 'node:fs';

const file = process.env.MEMORY_PROBE_FILE;
if (file && typeof globalThis.gc === 'function') {
  process.on('SIGUSR2', () => {
    globalThis.gc();
    writeFileSync(`${file}.part`, JSON.stringify(process.memoryUsage()));
    renameSync(`${file}.part`, file);
  });
}
