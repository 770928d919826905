import { afterEach, describe, expect, it, vi } from 'vitest';
import { atLeast, versionsAsText } from './version-text.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('versionsAsText', () => {
  it('one line per row: node, program, version separated by tabs', () => {
    expect(
      versionsAsText([
        { address: '10.0.0.5:6300', serviceName: 'main-front', version: '3.5.7.24112701' },
        { address: 'campus.example', serviceName: 'qy', version: '1.2.0' },
      ]),
    ).toBe('10.0.0.5:6300\tmain-front\t3.5.7.24112701\ncampus.example\tqy\t1.2.0');
    expect(versionsAsText([])).toBe('');
  });
});

describe('atLeast', () => {
  it('waits out the minimum after a quick success, and passes a failure on after it', async () => {
    vi.useFakeTimers();
    let done = false;
    const quick = atLeast(Promise.resolve(7), 1000).then((value) => {
      done = true;
      return value;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(quick).resolves.toBe(7);
    const failing = atLeast(Promise.reject(new Error('no')), 1000);
    const settled = failing.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await settled).toEqual(new Error('no'));
  });
});
