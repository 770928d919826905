import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { projects: ['packages/card-crypto', 'apps/server', 'apps/card-issuer', 'apps/shell', 'packages/subapp-sdk', 'apps/subapp-qy'] },
});
