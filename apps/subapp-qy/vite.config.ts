import { readFileSync } from 'node:fs';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { campusSubApp } from '@campus/subapp-sdk/vite';

const backend = 'http://127.0.0.1:6300';

/** The one place of the version: this package's package.json. */
const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  plugins: [
    react(),
    // subapp-qy.umd.js (global campusSubappQy), subapp-qy.css, index.html and report-version.json
    campusSubApp({ name: 'subapp-qy', version: pkg.version, entry: 'src/main.ts', rootId: 'subapp-qy-root', title: 'Enterprise data' }),
  ],
  publicDir: false,
  server: {
    // standalone development (`npm run dev -w apps/subapp-qy`): the same-origin server calls go to the local server
    proxy: { '/qy/api': { target: backend, changeOrigin: true } },
  },
  build: { outDir: 'dist', emptyOutDir: true },
});
