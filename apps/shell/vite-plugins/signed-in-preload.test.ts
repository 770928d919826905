import { afterEach, describe, expect, it } from 'vitest';
import { signedInFilesMetaName, signedInPreloadScript } from '@campus/contracts';
import { languageFiles, signedInFirstLoadFiles, type PreloadChunk } from './signed-in-preload.ts';

const chunk = (fileName: string, moduleIds: string[], imports: string[] = [], css: string[] = [], isEntry = false): PreloadChunk => ({
  type: 'chunk',
  fileName,
  moduleIds,
  imports,
  isEntry,
  viteMetadata: { importedCss: new Set(css) },
});

const chunks = [
  chunk('assets/index.js', ['/main.tsx', 'react-dom'], ['assets/first-load.js'], ['assets/index.css'], true),
  chunk('assets/first-load.js', ['react', '/session.ts']),
  chunk('assets/router.js', ['react-router', '/router.tsx'], ['assets/first-load.js', 'assets/index.js']),
  chunk('assets/signed-in.js', ['/antd-root.tsx', '/layout.tsx'], ['assets/index.js', 'assets/shared.js'], ['assets/signed-in.css']),
  chunk('assets/shared.js', ['/password-digest.ts'], [], ['assets/shared.css']),
  chunk('assets/card-page.js', ['/card-page.tsx'], ['assets/signed-in.js'], ['assets/card-page.css']),
  chunk('assets/en-US.js', ['/locales/en-US.json']),
  chunk('assets/zh-CN.js', ['/locales/zh-CN.json']),
];

describe('the files a signed-in first visit asks for beside the entry', () => {
  it('are the chunks holding the layout’s modules, what they import, and their stylesheets, without the entry’s', () => {
    expect(signedInFirstLoadFiles(chunks, ['/router.tsx', '/layout.tsx'])).toEqual([
      'assets/router.js',
      'assets/shared.js',
      'assets/signed-in.js',
      'assets/shared.css',
      'assets/signed-in.css',
    ]);
  });

  it('name a module that no chunk holds any more', () => {
    expect(() => signedInFirstLoadFiles(chunks, ['/gone.tsx'])).toThrow('/gone.tsx');
  });

  it('list each language’s texts under its code', () => {
    expect(languageFiles(chunks, ['zh-CN', 'en-US'], (language) => `/locales/${language}.json`)).toEqual(['zh-CN=assets/zh-CN.js', 'en-US=assets/en-US.js']);
    expect(() => languageFiles(chunks, ['zh-MO'], (language) => `/locales/${language}.json`)).toThrow('zh-MO');
  });
});

describe('the inline script of index.html', () => {
  const files = '/assets/router.js /assets/signed-in.js /assets/signed-in.css zh-CN=/assets/zh-CN.js en-US=/assets/en-US.js';
  const run = (path: string) => {
    window.history.replaceState(null, '', path);
    document.head.innerHTML = `<meta name="${signedInFilesMetaName}" content="${files}">`;
    new Function(signedInPreloadScript)();
    return [...document.head.querySelectorAll('link')].map((link) => [link.rel, link.getAttribute('href'), link.getAttribute('as'), link.getAttribute('crossorigin')]);
  };

  afterEach(() => {
    localStorage.clear();
    document.head.innerHTML = '';
  });

  it('asks a signed-in page for the layout’s files and the stored language’s texts, as the shell’s own loader does', () => {
    localStorage.setItem('campus.token', 'a-token');
    localStorage.setItem('campus.language', 'en-US');
    expect(run('/qy/homePage')).toEqual([
      ['modulepreload', '/assets/router.js', null, ''],
      ['modulepreload', '/assets/signed-in.js', null, ''],
      ['preload', '/assets/signed-in.css', 'style', ''],
      ['modulepreload', '/assets/en-US.js', null, ''],
    ]);
  });

  it('takes the fallback language’s texts when none is stored', () => {
    localStorage.setItem('campus.token', 'a-token');
    expect(run('/home').map(([, href]) => href)).toContain('/assets/zh-CN.js');
  });

  it('asks for nothing signed out, nor on the login page (it loads the layout’s code itself, later)', () => {
    expect(run('/qy/homePage')).toEqual([]);
    localStorage.setItem('campus.token', 'a-token');
    expect(run('/login')).toEqual([]);
    expect(run('/login/')).toEqual([]);
  });
});
