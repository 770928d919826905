import { configDefaults, defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'card-issuer',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    // the downloads' tests need the archives built: npm test runs them after the build (downloads.vitest.config.ts)
    exclude: [...configDefaults.exclude, 'test/downloads/**'],
    testTimeout: 30_000,
    // one pcscd and one virtual card for all files: one file at a time, in a group of its own after the server's
    // (whose files run two at a time: a group has one worker count)
    fileParallelism: false,
    sequence: { groupOrder: 2 },
  },
});
