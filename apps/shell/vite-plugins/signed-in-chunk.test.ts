import { describe, expect, it } from 'vitest';
import { firstLoadModules, type BuiltChunk } from './signed-in-chunk.ts';

const chunk = (fileName: string, moduleIds: string[], imports: string[] = [], facadeModuleId: string | null = null, isEntry = false): BuiltChunk => ({
  type: 'chunk',
  fileName,
  moduleIds,
  imports,
  facadeModuleId,
  isEntry,
});

const chunks = [
  chunk('index.js', ['/index.html', '/main.tsx', 'react-dom'], ['first-load.js'], '/index.html', true),
  chunk('first-load.js', ['react', '/session.ts']),
  chunk('router.js', ['react-router', '/router.tsx'], ['first-load.js', 'index.js'], '/router.tsx'),
  chunk('login-page.js', ['/login-page.tsx'], ['first-load.js', 'shared-with-login.js'], '/login-page.tsx'),
  chunk('shared-with-login.js', ['/password-digest.ts']),
  chunk('antd-root.js', ['/antd-root.tsx'], ['config-provider.js', 'first-load.js'], '/antd-root.tsx'),
  chunk('config-provider.js', ['antd/config-provider', 'antd/theme'], ['index.js']),
  chunk('layout.js', ['/layout.tsx'], ['dropdown.js', 'config-provider.js', 'shared-with-login.js', 'router.js'], '/layout.tsx'),
  chunk('dropdown.js', ['antd/dropdown', 'antd/menu']),
  chunk('table.js', ['antd/table'], ['config-provider.js']),
  chunk('card-page.js', ['/card-page.tsx'], ['table.js', 'dropdown.js'], '/card-page.tsx'),
];

describe('the signed-in layout’s first load', () => {
  it('is the modules of the chunks the layout’s files import statically, transitively', () => {
    expect([...firstLoadModules(chunks, ['/antd-root.tsx', '/layout.tsx'], ['/router.tsx', '/login-page.tsx'])].sort()).toEqual(
      ['/antd-root.tsx', '/layout.tsx', 'antd/config-provider', 'antd/dropdown', 'antd/menu', 'antd/theme'].sort(),
    );
  });

  it('leaves out what the entry and the pages before sign-in load, and what only a later screen uses', () => {
    const modules = firstLoadModules(chunks, ['/antd-root.tsx', '/layout.tsx'], ['/router.tsx', '/login-page.tsx']);
    for (const earlier of ['react-dom', 'react', 'react-router', '/password-digest.ts', '/session.ts']) expect(modules.has(earlier)).toBe(false);
    for (const later of ['antd/table', '/card-page.tsx']) expect(modules.has(later)).toBe(false);
  });

  it('names a file that no longer has a chunk of its own', () => {
    expect(() => firstLoadModules(chunks, ['/home-page.tsx'], [])).toThrow(/no chunk is made for \/home-page\.tsx/);
  });
});
