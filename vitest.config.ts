import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { projects: ['apps/server', 'apps/shell', 'packages/subapp-sdk', 'apps/subapp-qy'] },
});
