import { afterEach, expect, it } from 'vitest';
import { nextTick } from 'vue';
import { createFakeGlobalState, qiankunContainer, shellProps } from '@campus/subapp-sdk/testing';
import { lifecycles } from './main.ts';

afterEach(() => document.body.replaceChildren());

it('shows the signed-in user and follows the shell language', async () => {
  const shell = createFakeGlobalState({ language: 'en-US' });
  const container = qiankunContainer();
  const props = { ...shellProps({ language: 'en-US' }), container, ...shell.actionsFor('app') };
  await lifecycles.mount(props);
  expect(container.querySelector('h2')?.textContent).toBe('Hello, Ada');

  shell.broadcast({ language: 'zh-CN' });
  await nextTick();
  expect(container.querySelector('h2')?.textContent).toBe('Ada，您好');

  await lifecycles.unmount(props);
  expect(container.querySelector('h2')).toBeNull();
});
