import type { Connect, ViteDevServer } from 'vite';

/**
 * The dev server's entry for the real shell: the page a developer names in his shell's override (the shell fetches
 * it as the sub-app's index.html). The shell's loader runs an entry's scripts as classic scripts in its sandbox,
 * while the dev server serves modules with hot reload: so the entry's one classic script imports the dev server's
 * modules (they run on the page's own window, outside the sandbox) and hands their lifecycles to the loader.
 */
export const shellDevEntryPath = '/__campus-subapp/';

/** The module of the inline scripts the dev server adds to a page (a framework's hot-reload set-up: React's preamble). */
export const shellDevPreamblePath = `${shellDevEntryPath}preamble.js`;

/** Where the shell keeps a developer's override in his browser (the shell's own key). */
export const devOverrideStorageKey = 'campus.subAppDevOverride';

/** Origins a dev server answers with CORS by default (Vite's own default): loopback on any port. */
export const loopbackOriginPattern = /^https?:\/\/(?:(?:[^:]+\.)?localhost|127\.0\.0\.1|\[::1\])(?::\d+)?$/;

/** The shells that may load this dev server's code: one on loopback, or the shell the app proxies to. */
export function shellOrigins(shellUrl: string): [RegExp, string] {
  return [loopbackOriginPattern, new URL(shellUrl).origin];
}

function shellMayLoad(origin: string, shellUrl: string): boolean {
  return shellOrigins(shellUrl).some((allowed) => (typeof allowed === 'string' ? allowed === origin : allowed.test(origin)));
}

/** The entry page: a render element without the standalone id (the app does not mount itself), and the hand-over. */
export function shellDevEntryPage(options: { devOrigin: string; entryModule: string; globalName: string; title: string }): string {
  const text = (value: string) => JSON.stringify(value).replace(/</g, '\\u003c');
  const escape = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return [
    '<!doctype html>',
    '<html>',
    '  <head>',
    '    <meta charset="utf-8" />',
    `    <title>${escape(options.title)} (development)</title>`,
    '  </head>',
    '  <body>',
    '    <div data-subapp-root></div>',
    '    <script entry>',
    '      (function () {',
    `        var origin = ${text(options.devOrigin)};`,
    // the modules run on the page's window: there too the SDK must know it runs inside the shell
    '        document.defaultView.__POWERED_BY_QIANKUN__ = true;',
    `        var loaded = import(origin + "/@vite/client")`,
    `          .then(function () { return import(origin + ${text(shellDevPreamblePath)}); })`,
    `          .then(function () { return import(origin + ${text(options.entryModule)}); });`,
    '        function step(name) {',
    '          return function (props) {',
    '            return loaded.then(function (exports) {',
    '              var lifecycles = typeof exports.mount === "function" ? exports : exports.lifecycles || exports.default;',
    '              if (!lifecycles || typeof lifecycles.mount !== "function") throw new Error("campus sub-app: " + origin + ' + `${text(options.entryModule)}` + ' + " exports no lifecycles");',
    '              return typeof lifecycles[name] === "function" ? lifecycles[name](props) : undefined;',
    '            });',
    '          };',
    '        }',
    `        window[${text(options.globalName)}] = { bootstrap: step("bootstrap"), mount: step("mount"), unmount: step("unmount"), update: step("update") };`,
    '      })();',
    '    </script>',
    '  </body>',
    '</html>',
    '',
  ].join('\n');
}

/** The bodies of the inline module scripts in `html` (what the dev server's plugins add to a page). */
export function inlineModuleScripts(html: string): string[] {
  const found: string[] = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const [, attributes = '', body = ''] = match;
    if (/\btype\s*=\s*["']?module/i.test(attributes) && !/\bsrc\s*=/i.test(attributes) && body.trim() !== '') found.push(body);
  }
  return found;
}

/**
 * Serves the shell entry and its preamble on the dev server, with CORS for the shells that may load them (Vite's
 * own CORS, set by the plugin for the same origins, covers the modules).
 */
export function serveShellDevEntry(server: ViteDevServer, options: { entryModule: string; globalName: string; title: string; shellUrl: string }): void {
  const middleware: Connect.NextHandleFunction = (request, response, next) => {
    const pathname = (request.url ?? '').split('?')[0];
    if (pathname !== shellDevEntryPath && pathname !== shellDevPreamblePath) return next();
    const origin = request.headers.origin;
    if (typeof origin === 'string' && shellMayLoad(origin, options.shellUrl)) {
      response.setHeader('Access-Control-Allow-Origin', origin);
      response.setHeader('Vary', 'Origin');
    }
    const scheme = server.config.server.https ? 'https' : 'http';
    const devOrigin = `${scheme}://${request.headers.host ?? 'localhost'}`;
    const send = (type: string, body: string) => {
      response.setHeader('Content-Type', type);
      response.setHeader('Cache-Control', 'no-store');
      response.end(body);
    };
    if (pathname === shellDevEntryPath) {
      send('text/html; charset=utf-8', shellDevEntryPage({ devOrigin, entryModule: options.entryModule, globalName: options.globalName, title: options.title }));
      return;
    }
    server
      .transformIndexHtml('/', '<!doctype html><html><head></head><body></body></html>')
      .then((html) => send('text/javascript; charset=utf-8', `${inlineModuleScripts(html).join('\n')}\n`))
      .catch(next);
  };
  server.middlewares.use(middleware);
  server.httpServer?.once('listening', () => {
    setTimeout(() => {
      const local = server.resolvedUrls?.local[0];
      if (!local) return;
      const entry = new URL(shellDevEntryPath, local).href;
      const override = JSON.stringify({ app: '<folder>', entry });
      server.config.logger.info(
        `\n  Inside the shell (its server allowing SUBAPP_DEV_OVERRIDES), signed in, in the browser console:\n    localStorage.setItem('${devOverrideStorageKey}', '${override}')\n  with <folder> the sub-app's folder (its base path, e.g. qy), then reload the page.\n`,
      );
    });
  });
}
