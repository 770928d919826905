import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two files at a time (one per core): each file has its own PostgreSQL database, temp folders and system-chosen
    // ports (test/support/free-port.ts), so they share nothing. A group of its own (vitest runs a group's projects with one
    // worker count), after the jsdom and package files and before the card issuer's, which need pcscd alone.
    fileParallelism: true,
    maxWorkers: 2,
    sequence: { groupOrder: 1 },
  },
});
