import { fallbackLanguage } from './languages.ts';

/**
 * A signed-in user's first visit after an upgrade (an empty cache, issue 48 item 8): the layout's code came in a
 * chain, the entry, then the router it imports, then the layout's chunk the router asks for, each waiting for the one
 * before over a slow link. The shell's index.html carries this script, which, when a session is stored and the page
 * is not the login page, asks for the layout's files (named by the build in the meta element below) at once, beside
 * the entry. It only fetches (modulepreload, preload as style): nothing runs or applies before the shell asks for it.
 *
 * The server allows exactly this text, by its SHA-256 in the content security policy's script-src; the build puts
 * exactly this text in index.html. Both take it from here, so they cannot disagree.
 */

/** The localStorage keys of the access token and of the language (the shell's storage module names them after these). */
export const accessTokenStorageKey = 'campus.token';
export const languageStorageKey = 'campus.language';

/**
 * The meta element whose content lists, space-separated, the files the signed-in layout's first load fetches; a
 * language's texts are listed as `<language>=<file>`, and only the stored language's (else the fallback's) is fetched.
 */
export const signedInFilesMetaName = 'campus-signed-in-files';

/** The login page's path: the page a signed-out visit opens, which loads the layout's code on its own later. */
const loginPagePattern = '^/login/?$';

export const signedInPreloadScript = [
  '(function () {',
  '  try {',
  `    if (!localStorage.getItem(${JSON.stringify(accessTokenStorageKey)}) || new RegExp(${JSON.stringify(loginPagePattern)}).test(location.pathname)) return;`,
  `    var meta = document.querySelector('meta[name="${signedInFilesMetaName}"]');`,
  '    if (!meta) return;',
  `    var language = localStorage.getItem(${JSON.stringify(languageStorageKey)}) || ${JSON.stringify(fallbackLanguage)};`,
  "    meta.content.split(' ').forEach(function (entry) {",
  "      var equals = entry.indexOf('=');",
  '      if (equals >= 0 && entry.slice(0, equals) !== language) return;',
  '      var file = entry.slice(equals + 1);',
  '      if (!file) return;',
  "      var link = document.createElement('link');",
  '      var style = /\\.css$/.test(file);',
  "      link.rel = style ? 'preload' : 'modulepreload';",
  "      if (style) link.setAttribute('as', 'style');",
  "      link.crossOrigin = '';",
  '      link.href = file;',
  '      document.head.appendChild(link);',
  '    });',
  '  } catch (error) {',
  '    // storage disabled: the shell loads its files as it would without this script',
  '  }',
  '})();',
].join('\n');
