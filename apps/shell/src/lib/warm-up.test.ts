import { describe, expect, it, vi } from 'vitest';

// the module keeps whether the warm-up has begun: a fresh copy for each test
const freshWarmUp = async () => {
  vi.resetModules();
  return import('./warm-up.ts');
};

describe('the warm-up of the signed-in code', () => {
  it('loads nothing until it is started, then each loader once', async () => {
    const { registerWarmUp, warmUpSignedInCode } = await freshWarmUp();
    const layout = vi.fn(async () => 'layout');
    registerWarmUp(layout);
    expect(layout).not.toHaveBeenCalled();
    warmUpSignedInCode();
    warmUpSignedInCode();
    expect(layout).toHaveBeenCalledTimes(1);
  });

  it('runs a loader registered after the start at once (the router registers the layout as it loads)', async () => {
    const { registerWarmUp, warmUpSignedInCode } = await freshWarmUp();
    const layout = vi.fn(async () => 'layout');
    const router = vi.fn(async () => registerWarmUp(layout));
    registerWarmUp(router);
    warmUpSignedInCode();
    await vi.waitFor(() => expect(layout).toHaveBeenCalledTimes(1));
    expect(router).toHaveBeenCalledTimes(1);
  });

  it('goes on past a loader that fails', async () => {
    const { registerWarmUp, warmUpSignedInCode } = await freshWarmUp();
    const next = vi.fn(async () => 'next');
    registerWarmUp(async () => {
      throw new Error('chunk missing');
    }, next);
    warmUpSignedInCode();
    expect(next).toHaveBeenCalledTimes(1);
  });
});
