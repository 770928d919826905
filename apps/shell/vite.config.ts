import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { decorativeIcons } from './vite-plugins/decorative-icons.ts';

const backend = 'http://127.0.0.1:6300';
const apiPrefixes = ['/user', '/iot-login', '/iot_login', '/global', '/auth', '/system', '/qy/api', '/oss', '/common-service', '/tools/tools.json', '/subapps', '/healthz'];

export default defineConfig({
  base: '/',
  plugins: [decorativeIcons(), react()],
  server: {
    proxy: Object.fromEntries(apiPrefixes.map((prefix) => [prefix, { target: backend, changeOrigin: true }])),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
  },
});
