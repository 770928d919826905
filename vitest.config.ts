import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/card-crypto', 'apps/server', 'apps/card-issuer', 'apps/shell', 'packages/subapp-sdk', 'packages/create-campus-subapp', 'apps/subapp-qy'],
    // Files that share nothing outside their process run two at a time: the shell and the sub-app in jsdom, the
    // crypto and SDK packages, then the server's (sequence.groupOrder 1: each file has its own database, folders and
    // ports). The card issuer's files share the one pcscd: they run one at a time, last (groupOrder 2).
    maxWorkers: 2,
  },
});
