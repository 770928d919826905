import { describe, expect, it } from 'vitest';
import { namedLifecyclesGlobal, noteEntryPage, pointAppNameAtGlobal, prepareLifecyclesLookup } from './lifecycles-global.ts';

const lifecycles = { bootstrap: async () => {}, mount: async () => {}, unmount: async () => {} };

/** What the loader does after the entry script ran (qiankun 2.10.16): the newest global, the last set, window[name]. */
function loaderLookup(sandboxWindow: Record<string, unknown>, before: Set<string>, lastSet: string, appName: string): unknown {
  const isLifecycles = (value: unknown) => typeof value === 'object' && value !== null && ['bootstrap', 'mount', 'unmount'].every((key) => typeof (value as Record<string, unknown>)[key] === 'function');
  const newest = Object.keys(sandboxWindow).filter((key) => !before.has(key)).at(-1);
  for (const candidate of [newest && sandboxWindow[newest], sandboxWindow[lastSet], sandboxWindow[appName]]) if (isLifecycles(candidate)) return candidate;
  throw new Error(`You need to export lifecycle functions in ${appName} entry`);
}

describe('the lifecycles global an entry page names (issue 48 item 16)', () => {
  it('reads the name from the entry script only, and only a name', () => {
    expect(namedLifecyclesGlobal('<script src="./vue-orders.umd.js" entry data-lifecycles-global="campusVueOrders"></script>')).toBe('campusVueOrders');
    expect(namedLifecyclesGlobal("<script data-lifecycles-global='orders_1' src=x.js entry></script>")).toBe('orders_1');
    expect(namedLifecyclesGlobal('<script src="./vendor.js" data-lifecycles-global="vendor"></script><script src="./app.js" entry></script>')).toBeNull();
    expect(namedLifecyclesGlobal('<script src="./app.js" entry data-lifecycles-global="a.b; alert(1)"></script>')).toBeNull();
    expect(namedLifecyclesGlobal('<script src="./app.js" entry></script>')).toBeNull();
    expect(namedLifecyclesGlobal('<p>no script</p>')).toBeNull();
  });

  it('lets the loader find the lifecycles when a library set globals after the bundle’s', () => {
    const run = (sandboxWindow: Record<string, unknown>) => {
      const before = new Set(Object.keys(sandboxWindow));
      // a UMD bundle of a Vue app: the wrapper makes its global, then Vue's runtime sets two of its own
      sandboxWindow.campusVueOrders = lifecycles;
      sandboxWindow.__VUE_INSTANCE_SETTERS__ = [];
      sandboxWindow.__VUE_SSR_SETTERS__ = [];
      return loaderLookup(sandboxWindow, before, '__VUE_SSR_SETTERS__', 'vueorders');
    };
    expect(() => run({})).toThrow('You need to export lifecycle functions in vueorders entry');
    const named: Record<string, unknown> = {};
    pointAppNameAtGlobal(named, 'vueorders', 'campusVueOrders');
    expect(run(named)).toBe(lifecycles);
    // hidden from the loader's look for the newest global
    expect(Object.keys(named)).not.toContain('vueorders');
  });

  it('leaves a global the app set itself, and an app named like its global', () => {
    const own: Record<string, unknown> = { vueorders: 'its own' };
    pointAppNameAtGlobal(own, 'vueorders', 'campusVueOrders');
    expect(own.vueorders).toBe('its own');
    const same: Record<string, unknown> = {};
    pointAppNameAtGlobal(same, 'campusVueOrders', 'campusVueOrders');
    same.campusVueOrders = lifecycles;
    expect(same.campusVueOrders).toBe(lifecycles);
  });

  it('takes the name from the entry page the loader fetched, leaving the page for the loader to read', async () => {
    const page = new Response('<script src="./vue-orders.umd.js" entry data-lifecycles-global="campusVueOrders"></script>', { headers: { 'content-type': 'text/html; charset=utf-8' } });
    noteEntryPage('http://team.example/vue-orders/', page);
    expect(await page.text()).toContain('campusVueOrders');
    const sandboxWindow: Record<string, unknown> = { campusVueOrders: lifecycles };
    await prepareLifecyclesLookup('vueorders', 'http://team.example/vue-orders/', sandboxWindow);
    expect(sandboxWindow.vueorders).toBe(lifecycles);

    const script = new Response('window.x = 1', { headers: { 'content-type': 'text/javascript' } });
    noteEntryPage('http://team.example/other/', script);
    const other: Record<string, unknown> = {};
    await prepareLifecyclesLookup('other', 'http://team.example/other/', other);
    expect(Object.getOwnPropertyNames(other)).toEqual([]);
  });
});
