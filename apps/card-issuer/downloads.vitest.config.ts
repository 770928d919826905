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
    // the files share nothing (an overlay and a namespace of its own per Windows file, the host's pcscd for the Linux
    // one, ports of their own) and mostly wait on Wine, pcscd and the cards: all three at once take about as long as
    // the longest (40 s here on 2 cores, against 66 s two at a time)
    fileParallelism: true,
    maxWorkers: 3,
  },
});
