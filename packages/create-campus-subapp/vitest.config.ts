import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'create-campus-subapp',
    environment: 'node',
    include: ['test/**/*.test.ts'],
  },
});
