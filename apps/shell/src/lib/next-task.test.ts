import { describe, expect, it } from 'vitest';
import { nextTask } from './next-task.ts';

describe('nextTask', () => {
  it('resolves after the promises already queued and after a task queued before it', async () => {
    const order: string[] = [];
    setTimeout(() => order.push('earlier task'), 0);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const waited = nextTask().then(() => order.push('next task'));
    void Promise.resolve().then(() => order.push('microtask'));
    order.push('now');
    await waited;
    expect(order).toEqual(['earlier task', 'now', 'microtask', 'next task']);
  });
});
