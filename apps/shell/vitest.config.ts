import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { antdStyles } from './vite-plugins/antd-styles.ts';
import { decorativeIcons } from './vite-plugins/decorative-icons.ts';

export default defineProject({
  plugins: [antdStyles(), decorativeIcons(), react()],
  test: {
    name: 'shell',
    environment: 'jsdom',
    setupFiles: ['./test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}', 'vite-plugins/**/*.test.ts'],
    css: false,
    // the icons go through the build's decorativeIcons plugin here too, so the tests see the names users hear
    server: { deps: { inline: [/@ant-design[\\/]icons/] } },
    // antd renders slowly in jsdom, four to six times more so on the shared CI machine: a limit catches a hang,
    // it measures nothing (the waits of Testing Library get the same room in test/setup.ts)
    testTimeout: 60_000,
  },
});
