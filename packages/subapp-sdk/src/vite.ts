import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { serveShellDevEntry, shellOrigins } from './shell-dev-entry.ts';
import { lifecyclesGlobalAttribute, reportServiceNamePattern, reportVersionFileName, reportVersionPattern, sharedLibrariesGlobal, sharedLibraryProperties, type ReportVersionFile } from './shared-libraries.ts';

/** How `campusSubApp` builds a sub-app. */
export interface SubAppBuildOptions {
  /** The sub-app's name: report-version.json's serviceName, the bundle's file name; letters, digits, '.', '_', '-'. */
  name: string;
  /** Its version (report-version.json, About System): letters, digits, '.', '_', '-', '+'. */
  version: string;
  /** The module that exports the lifecycles; default 'src/main.tsx'. */
  entry?: string;
  /** The UMD global the shell's loader reads the lifecycles from; default 'campus' + the name in PascalCase. */
  globalName?: string;
  /** id of the render element (it also carries `data-subapp-root`); default '<name>-root'. */
  rootId?: string;
  /** The entry page's title (seen only when the folder is opened on its own). */
  title?: string;
  /**
   * Use the React the shell lends (default true): React is not in the bundle, which then runs only inside the shell.
   * false bundles the app's own React (a sub-app on another React major than the shell's).
   */
  shareReact?: boolean;
  /**
   * The running shell `vite` (the dev server) sends every path but the app's own to (default
   * http://127.0.0.1:6300, `npm start` of the shell): sign in to the shell at /login on the dev server's address,
   * then open / there: the app runs on its own with that session, its calls answered by the shell's server.
   */
  shellUrl?: string;
}

/** The names at the top of the project folder (what the dev server serves itself). */
function projectEntries(root: string | undefined): string[] {
  try {
    return readdirSync(path.resolve(root ?? process.cwd())).filter((name) => !name.startsWith('.'));
  } catch {
    return ['index.html', 'src', 'node_modules'];
  }
}

/** Where `vite` sends the shell's paths when no shellUrl is given: the shell's own `npm start`. */
export const defaultShellUrl = 'http://127.0.0.1:6300';

/**
 * The dev server's proxy to a running shell: every path except the dev page (/), Vite's own (/@vite/…, /@id/…,
 * /__…) and the project's files (`projectEntries`, the names at the top of the project folder: /src/…,
 * /package.json, /node_modules/…), so the shell's pages, assets and API all answer on the dev server's address and
 * share its storage (the session) with the app.
 */
export function shellDevProxy(shellUrl: string, projectEntries: string[]): Record<string, { target: string; changeOrigin: boolean }> {
  const target = new URL(shellUrl);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error(`campusSubApp: shellUrl "${shellUrl}" must be an http(s) address`);
  const escape = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const own = projectEntries.map(escape).join('|');
  return { [`^/(?!$|[?#]|@|__|(?:${own})(?:[/?#]|$))`]: { target: target.origin, changeOrigin: true } };
}

/** The names a build of `options` writes: the entry script, its stylesheet (when the app imports CSS), the global. */
export function subAppBuildNames(options: Pick<SubAppBuildOptions, 'name' | 'globalName'>): { script: string; cssName: string; globalName: string } {
  const pascal = options.name.split(/[^A-Za-z0-9]+/).filter(Boolean).map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
  return { script: `${options.name}.umd.js`, cssName: options.name, globalName: options.globalName ?? `campus${pascal}` };
}

/**
 * The entry folder's index.html: the render element, the stylesheets the build wrote, the entry script (naming the
 * global of its lifecycles for the shell).
 */
export function entryPage(options: { rootId: string; title: string; script: string; stylesheets: string[]; lang?: string; globalName?: string }): string {
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return [
    '<!doctype html>',
    `<html lang="${escape(options.lang ?? 'zh-CN')}">`,
    '  <head>',
    '    <meta charset="utf-8" />',
    '    <meta name="viewport" content="width=device-width, initial-scale=1" />',
    `    <title>${escape(options.title)}</title>`,
    ...options.stylesheets.map((file) => `    <link rel="stylesheet" href="./${escape(file)}" />`),
    '  </head>',
    '  <body>',
    `    <div data-subapp-root id="${escape(options.rootId)}"></div>`,
    `    <script src="./${escape(options.script)}" entry${options.globalName ? ` ${lifecyclesGlobalAttribute}="${escape(options.globalName)}"` : ''}></script>`,
    '  </body>',
    '</html>',
    '',
  ].join('\n');
}

/**
 * The code after the UMD bundle that sets its global again, last. The shell's loader (qiankun 2) takes as the
 * lifecycles the global an entry script set last, and a framework may set globals of its own after the bundle's
 * (Vue 3's runtime sets `__VUE_INSTANCE_SETTERS__` and `__VUE_SSR_SETTERS__` while the bundle runs, after the UMD
 * wrapper has made its global): taken away and set again, the bundle's global is both the newest property of the
 * window (the loader's look without a sandbox) and the last one set (its look inside the sandbox).
 */
export function lifecyclesLastFooter(globalName: string): string {
  const name = JSON.stringify(globalName);
  return `;(function (g) { var l = g[${name}]; if (l) { try { delete g[${name}]; } catch (e) {} g[${name}] = l; } })(typeof globalThis !== 'undefined' ? globalThis : self);`;
}

/**
 * The Vite plugin that builds a sub-app the way the shell loads it. The shell's loader (qiankun 2) runs a sub-app's
 * scripts as classic scripts in a sandbox, so the build is one UMD bundle whose global holds the lifecycles, with
 * relative URLs (it is served under /subapps/<folder>/ or from another server), React taken from the shell, and
 * beside it the entry folder's `index.html` (linking a stylesheet only when the build wrote one) and
 * `report-version.json`. `vite build` then writes everything the shell mounts. Under `vite` (the dev server) the
 * app runs on its own with its own React (the SDK's standalone mode), every other path going to the shell at
 * `shellUrl` (`shellDevProxy`).
 */
export function campusSubApp(options: SubAppBuildOptions): Plugin {
  if (!new RegExp(reportServiceNamePattern).test(options.name)) throw new Error(`campusSubApp: name "${options.name}" must be 1 to 64 letters, digits, '.', '_' or '-'`);
  if (!new RegExp(reportVersionPattern).test(options.version)) throw new Error(`campusSubApp: version "${options.version}" must be 1 to 64 letters, digits, '.', '_', '-' or '+'`);
  const { script, cssName, globalName } = subAppBuildNames(options);
  const shared = options.shareReact ?? true;
  return {
    name: 'campus-subapp',
    // after Vite's own plugins: its CSS plugin writes the stylesheet in generateBundle, before this one reads it
    enforce: 'post',
    config: (config, { mode, command }) => ({
      base: './',
      ...(command === 'serve'
        ? {
            server: {
              proxy: shellDevProxy(options.shellUrl || defaultShellUrl, projectEntries(config.root)),
              // the shell's page imports the dev server's modules (shell-dev-entry.ts): loopback shells and this one
              ...(config.server?.cors === undefined ? { cors: { origin: shellOrigins(options.shellUrl || defaultShellUrl) } } : {}),
            },
          }
        : {}),
      // nothing defines process for the bundle in the browser: React and other libraries read process.env.NODE_ENV
      // (the dev server and a test run set it themselves)
      ...(command === 'build' ? { define: { 'process.env.NODE_ENV': JSON.stringify(mode === 'development' ? 'development' : 'production') } } : {}),
      build: {
        // one stylesheet and images inline: the entry page names each file the shell fetches
        cssCodeSplit: false,
        assetsInlineLimit: () => true,
        lib: { entry: options.entry ?? 'src/main.tsx', name: globalName, formats: ['umd'], fileName: () => script, cssFileName: cssName },
        rollupOptions: shared
          ? {
              external: Object.keys(sharedLibraryProperties),
              output: { footer: lifecyclesLastFooter(globalName), globals: Object.fromEntries(Object.entries(sharedLibraryProperties).map(([specifier, property]) => [specifier, `${sharedLibrariesGlobal}.${property}`])) },
            }
          : { output: { footer: lifecyclesLastFooter(globalName) } },
      },
    }),
    // `vite`: the entry a developer names in the real shell's override, to run this dev server's code there
    configureServer: (server) =>
      serveShellDevEntry(server, { entryModule: `/${(options.entry ?? 'src/main.tsx').replace(/^\.?\//, '')}`, globalName, title: options.title ?? options.name, shellUrl: options.shellUrl || defaultShellUrl }),
    generateBundle(_outputOptions, bundle) {
      const stylesheets = Object.values(bundle)
        .filter((file) => file.type === 'asset' && file.fileName.endsWith('.css'))
        .map((file) => file.fileName);
      this.emitFile({ type: 'asset', fileName: 'index.html', source: entryPage({ rootId: options.rootId ?? `${options.name}-root`, title: options.title ?? options.name, script, stylesheets, globalName }) });
      const report: ReportVersionFile = { serviceName: options.name, version: options.version };
      this.emitFile({ type: 'asset', fileName: reportVersionFileName, source: `${JSON.stringify(report, null, 2)}\n` });
    },
  };
}
