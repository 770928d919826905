import { afterEach, describe, expect, it } from 'vitest';
import { sdkVersion } from '@campus/subapp-sdk';
import { resetSubApps, setSubAppPhase, useSubAppStore } from '../../lib/sub-apps.ts';
import { acceptedSdkRange, checkSubApp, reportSubAppFailure, sdkFits, SubAppMisfitError } from './sub-app-fit.ts';

afterEach(() => resetSubApps());

describe('which sub-app builds this shell mounts', () => {
  it('the same major version of the SDK, no newer minor one than the shell', () => {
    expect(sdkFits('1.0.0', '1.1.0')).toBe(true);
    expect(sdkFits('1.1.7', '1.1.0')).toBe(true);
    expect(sdkFits('1.2.0', '1.1.0')).toBe(false);
    expect(sdkFits('2.0.0', '1.1.0')).toBe(false);
    expect(sdkFits('0.9.0', '1.1.0')).toBe(false);
    expect(sdkFits('one', '1.1.0')).toBe(false);
    expect(sdkFits(sdkVersion)).toBe(true);
    expect(acceptedSdkRange('1.4.2')).toEqual({ from: '1.0', to: '1.4' });
  });

  it('a misfit is refused at bootstrap, naming the sub-app, its version and both SDK versions', () => {
    expect(() => checkSubApp('orders', { sdkVersion, name: 'partner-orders', version: '2.4.1' })).not.toThrow();
    let refusal: unknown;
    try {
      checkSubApp('orders', { sdkVersion: '2.0.0', name: 'partner-orders', version: '3.0.0' });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(SubAppMisfitError);
    expect((refusal as SubAppMisfitError).params).toEqual({ app: 'partner-orders 3.0.0', appSdk: '2.0.0', ...acceptedSdkRange() });
  });

  it('a failure after mount shows the failed page of the mounted sub-app, and is ignored once it is gone', () => {
    checkSubApp('orders', { sdkVersion, name: 'partner-orders', version: '2.4.1' });
    reportSubAppFailure('orders', new Error('too early'));
    expect(useSubAppStore.getState().phases.orders).toBeUndefined();
    setSubAppPhase('orders', { phase: 'mounted' });
    reportSubAppFailure('orders', new Error('orders broke after mount'));
    expect(useSubAppStore.getState().phases.orders).toEqual({
      phase: 'failed',
      failure: 'crashed',
      detail: 'orders broke after mount',
      params: { app: 'partner-orders 2.4.1' },
    });
  });
});
