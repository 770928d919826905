import { afterEach, describe, expect, it } from 'vitest';
import { resetSandboxWarmUp, warmWindowForSandbox } from './sandbox-warm-up.ts';

afterEach(() => resetSandboxWarmUp());

describe('the window warm-up before the first sandbox', () => {
  it('reads the descriptor of every property of the window, none in the caller’s task, and only once', async () => {
    const read: PropertyKey[] = [];
    const names = Array.from({ length: 5000 }, (_, i) => `p${i}`);
    const target = new Proxy({} as Window, {
      ownKeys: () => names,
      getOwnPropertyDescriptor: (_target, name) => {
        read.push(name);
        return { value: 1, configurable: true, enumerable: true, writable: true };
      },
    });
    const done = warmWindowForSandbox(target);
    // nothing is read in the caller's task: the page renders first
    expect(read).toHaveLength(0);
    await done;
    expect(new Set(read).size).toBe(names.length);
    await warmWindowForSandbox(target);
    expect(read).toHaveLength(names.length);
  });
});
