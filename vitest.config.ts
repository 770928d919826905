import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/card-crypto', 'apps/server', 'apps/card-issuer', 'apps/shell', 'packages/subapp-sdk', 'packages/create-campus-subapp', 'apps/subapp-qy'],
    // Files that share nothing outside their process (the shell and the sub-app in jsdom, the crypto and SDK
    // packages) run two at a time; the server and the card issuer, whose files share PostgreSQL, slapd and pcscd,
    // run one at a time after them (sequence.groupOrder 1 in their configs).
    maxWorkers: 2,
  },
});
