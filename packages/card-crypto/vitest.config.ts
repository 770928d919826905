import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'card-crypto',
    environment: 'node',
    include: ['test/**/*.test.ts'],
  },
});
