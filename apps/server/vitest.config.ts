import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores: argon2 and PostgreSQL set-up per file run best one file at a time, in a group of their own
    // (vitest runs a group's projects with one worker count)
    fileParallelism: false,
    sequence: { groupOrder: 1 },
  },
});
