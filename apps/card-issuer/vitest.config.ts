import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'card-issuer',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    // one pcscd and one virtual card for all files: one file at a time, with the server's group
    fileParallelism: false,
    sequence: { groupOrder: 1 },
  },
});
