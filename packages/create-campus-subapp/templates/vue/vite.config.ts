/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import vue from '@vitejs/plugin-vue';
import { campusSubApp } from '@campus/subapp-sdk/vite';
import pkg from './package.json' with { type: 'json' };

export default defineConfig({
  plugins: [
    vue(),
    // `npm run build`: dist/ holds <name>.umd.js, <name>.css, index.html and report-version.json, what the shell mounts.
    // `npm run dev`: the app on its own; every path but the app's own goes to the shell at CAMPUS_SHELL_URL.
    campusSubApp({ name: pkg.name, version: pkg.version, entry: 'src/main.ts', shellUrl: process.env.CAMPUS_SHELL_URL }),
  ],
  test: { environment: 'jsdom' },
});
