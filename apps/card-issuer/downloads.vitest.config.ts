import { defineConfig } from 'vitest/config';

// `npm test`'s step "card issuer downloads (Wine 10, pcscd)": the archives of scripts/build-issuer.mjs, unpacked and
// run as an operator runs them (test/downloads). Not in the card-issuer project: they need the archives built first.
export default defineConfig({
  root: import.meta.dirname,
  test: {
    name: 'card-issuer-downloads',
    environment: 'node',
    include: ['test/downloads/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 600_000,
    // the Windows and the Linux download share nothing (pcscd in the root and on the host, ports of their own)
    fileParallelism: true,
    maxWorkers: 2,
  },
});
