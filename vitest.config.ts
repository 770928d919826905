import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { projects: ['packages/card-crypto', 'apps/server', 'apps/shell', 'packages/subapp-sdk', 'apps/subapp-qy'] },
});
