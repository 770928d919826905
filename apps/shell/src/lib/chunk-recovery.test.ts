import { beforeEach, describe, expect, it, vi } from 'vitest';
import { installChunkRecovery } from './chunk-recovery.ts';

function fakeWindow() {
  const target = new EventTarget() as unknown as Window;
  const reload = vi.fn();
  Object.assign(target, { sessionStorage: window.sessionStorage, location: { reload } });
  return { target, reload };
}

function preloadError(target: Window): Event {
  const event = new Event('vite:preloadError', { cancelable: true });
  target.dispatchEvent(event);
  return event;
}

describe('chunk-load recovery', () => {
  beforeEach(() => window.sessionStorage.clear());

  it('reloads the page when a lazy file of an older deployment is gone, and keeps the error from surfacing', () => {
    const { target, reload } = fakeWindow();
    installChunkRecovery(target, () => 1_000_000);
    const event = preloadError(target);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(event.defaultPrevented).toBe(true);
  });

  it('does not loop: a second failure right after the reload lets the error show', () => {
    let now = 1_000_000;
    const first = fakeWindow();
    installChunkRecovery(first.target, () => now);
    preloadError(first.target);
    now += 3_000; // the reloaded page fails again
    const second = fakeWindow();
    installChunkRecovery(second.target, () => now);
    const event = preloadError(second.target);
    expect(second.reload).not.toHaveBeenCalled();
    expect(event.defaultPrevented).toBe(false);
    now += 60_000; // a later deployment
    preloadError(second.target);
    expect(second.reload).toHaveBeenCalledTimes(1);
  });
});
