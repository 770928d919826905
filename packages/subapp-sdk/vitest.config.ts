import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'subapp-sdk',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.ts'],
  },
});
