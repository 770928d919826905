import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { antdStyles } from './vite-plugins/antd-styles.ts';
import { decorativeIcons } from './vite-plugins/decorative-icons.ts';
import { compileHints } from './vite-plugins/compile-hints.ts';
import { signedInChunk } from './vite-plugins/signed-in-chunk.ts';
import { signedInPreload } from './vite-plugins/signed-in-preload.ts';

const source = (file: string) => fileURLToPath(new URL(`./src/${file}`, import.meta.url));
// what the signed-in layout's first load imports (router.tsx's warm-up), and the pages before sign-in
const signedInModules = ['app/antd-root.tsx', 'app/signed-in-layout.tsx', 'features/layout/home-page.tsx', 'features/layout/menu-page.tsx'].map(source);
const signedIn = signedInChunk(signedInModules, ['app/router.tsx', 'features/auth/login-page.tsx', 'features/auth/not-login-page.tsx'].map(source));

const backend = 'http://127.0.0.1:6300';
const apiPrefixes = ['/user', '/iot-login', '/iot_login', '/global', '/auth', '/system', '/qy/api', '/oss', '/common-service', '/tools/tools.json', '/subapps', '/healthz'];

export default defineConfig({
  base: '/',
  // a signed-in page with an empty cache asks for the router and the layout's chunk beside the entry (issue 48 item 8)
  plugins: [antdStyles(), decorativeIcons(), react(), compileHints(), signedIn.plugin, signedInPreload([source('app/router.tsx'), ...signedInModules], (language) => source(`locales/${language}.json`))],
  resolve: {
    // Node's crypto, imported by sm-crypto-v2 for runtimes without Web Crypto: the browser's own (lib/node-crypto-stand-in.ts)
    alias: [{ find: /^crypto$/, replacement: fileURLToPath(new URL('./src/lib/node-crypto-stand-in.ts', import.meta.url)) }],
  },
  server: {
    proxy: Object.fromEntries(apiPrefixes.map((prefix) => [prefix, { target: backend, changeOrigin: true }])),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    // the signed-in layout's one chunk (below) is about 500 kB by design; a chunk past this is news
    chunkSizeWarningLimit: 640,
    rolldownOptions: {
      output: {
        // The login page's first load in a few files, not twenty: each file also carries about 480 bytes of
        // headers on the wire (issue 27). The contracts minus their message catalogues make one file; the small
        // modules the sign-in pages share with the layout make another, with what they import (React, the
        // translations, the request layer), which every page loads first anyway.
        codeSplitting: {
          groups: [
            { name: 'contracts', test: /packages[\\/]contracts[\\/]src[\\/](?!.*-messages\.ts$)/ },
            { name: 'first-load', test: /src[\\/](features[\\/]auth[\\/](post-login|tenant-lookup)|lib[\\/](session|language-picker|sign-out-notice))\.tsx?$/ },
            // what it imports from the entry, the router and the chunks above stays there
            { name: 'signed-in', test: signedIn.test, includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
});
