import { describe, expect, it, vi } from 'vitest';
import { createTenantLookup } from './tenant-lookup.ts';

const demo = [{ code: '1001', name: 'Demo Campus' }];

describe('tenant lookup ahead of Login', () => {
  it('uses the lookup made when the username was left, once', async () => {
    const fetchTenants = vi.fn(async () => demo);
    const lookup = createTenantLookup(fetchTenants);
    lookup.prefetch(' staff ');
    lookup.prefetch('staff');
    expect(await lookup.lookUp('staff')).toEqual(demo);
    expect(fetchTenants).toHaveBeenCalledTimes(1);
    expect(fetchTenants).toHaveBeenCalledWith('staff', true);
    // the next Login asks again: tenants may have changed since
    await lookup.lookUp('staff');
    expect(fetchTenants).toHaveBeenLastCalledWith('staff', false);
  });

  it('asks again when the account changed or the early lookup failed', async () => {
    const fetchTenants = vi.fn(async (account: string, silent: boolean) => (silent && account === 'multi' ? null : demo));
    const lookup = createTenantLookup(fetchTenants);
    lookup.prefetch('staff');
    expect(await lookup.lookUp('sysadmin')).toEqual(demo);
    expect(fetchTenants).toHaveBeenLastCalledWith('sysadmin', false);
    lookup.prefetch('multi');
    expect(await lookup.lookUp('multi')).toEqual(demo);
    expect(fetchTenants).toHaveBeenLastCalledWith('multi', false);
  });

  it('ignores an empty username', () => {
    const fetchTenants = vi.fn(async () => demo);
    createTenantLookup(fetchTenants).prefetch('   ');
    expect(fetchTenants).not.toHaveBeenCalled();
  });
});
