import { readFileSync } from 'node:fs';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { reportVersionFileName, type ReportVersionFile } from '@campus/contracts';

/** The UMD global qiankun finds the lifecycles on, and the built files (named in the entry index.html). */
const umdName = 'campusSubappQy';
const scriptFile = 'subapp-qy.umd.js';
const cssName = 'subapp-qy';
const backend = 'http://127.0.0.1:6300';

/** The one place of the version: this package's package.json. */
const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

/**
 * Emits the entry folder's index.html (the sub-app's render element, the css and the entry script, relative URLs so it
 * works under /subapps/qy/) and report-version.json, next to the bundle.
 */
function entryFolderFiles(): Plugin {
  return {
    name: 'campus-subapp-entry-folder',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const cssFiles = Object.values(bundle)
        .filter((file) => file.type === 'asset' && file.fileName.endsWith('.css'))
        .map((file) => file.fileName);
      const links = cssFiles.map((file) => `    <link rel="stylesheet" href="./${file}" />`).join('\n');
      const html = [
        '<!doctype html>',
        '<html lang="zh-CN">',
        '  <head>',
        '    <meta charset="utf-8" />',
        '    <meta name="viewport" content="width=device-width, initial-scale=1" />',
        '    <title>Enterprise data</title>',
        ...(links ? [links] : []),
        '  </head>',
        '  <body>',
        '    <div data-subapp-root id="subapp-qy-root"></div>',
        `    <script src="./${scriptFile}" entry></script>`,
        '  </body>',
        '</html>',
        '',
      ].join('\n');
      this.emitFile({ type: 'asset', fileName: 'index.html', source: html });
      const report: ReportVersionFile = { serviceName: 'subapp-qy', version: pkg.version };
      this.emitFile({ type: 'asset', fileName: reportVersionFileName, source: `${JSON.stringify(report, null, 2)}\n` });
    },
  };
}

export default defineConfig(({ mode }) => ({
  base: './',
  plugins: [react(), entryFolderFiles()],
  // qiankun runs the bundle as a classic script: nothing defines process for it
  define: { 'process.env.NODE_ENV': JSON.stringify(mode === 'development' ? 'development' : 'production') },
  publicDir: false,
  server: {
    // standalone development (`npm run dev -w apps/subapp-qy`): the same-origin server calls go to the local server
    proxy: { '/qy/api': { target: backend, changeOrigin: true } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    cssCodeSplit: false,
    assetsInlineLimit: () => true,
    lib: {
      entry: 'src/main.ts',
      name: umdName,
      formats: ['umd'],
      fileName: () => scriptFile,
      cssFileName: cssName,
    },
  },
}));
