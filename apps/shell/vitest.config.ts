import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'shell',
    environment: 'jsdom',
    setupFiles: ['./test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
    css: false,
    // antd renders slowly in jsdom, four to six times more so on the shared CI machine: a limit catches a hang,
    // it measures nothing (the waits of Testing Library get the same room in test/setup.ts)
    testTimeout: 60_000,
  },
});
