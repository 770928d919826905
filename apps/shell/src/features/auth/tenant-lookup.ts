import type { TenantEntry } from '@campus/contracts';
import { apiPaths, isSuccessCode } from '@campus/contracts';
import { apiGet } from '../../lib/request.ts';

/**
 * The tenants of an account (spec §4 "Tenant selection"), looked up ahead when the user leaves the
 * username field, so Login does not wait for it. An ahead-of-time lookup stays silent when it fails;
 * the lookup at Login then runs again and reports as usual.
 */
export function createTenantLookup(fetchTenants: (account: string, silent: boolean) => Promise<TenantEntry[] | null> = defaultFetch) {
  let ahead: { account: string; result: Promise<TenantEntry[] | null> } | null = null;
  return {
    prefetch(account: string): void {
      const trimmed = account.trim();
      if (!trimmed || ahead?.account === trimmed) return;
      ahead = { account: trimmed, result: fetchTenants(trimmed, true).catch(() => null) };
    },
    async lookUp(account: string): Promise<TenantEntry[]> {
      const trimmed = account.trim();
      const early = ahead?.account === trimmed ? await ahead.result : null;
      ahead = null;
      return early ?? (await fetchTenants(trimmed, false)) ?? [];
    },
  };
}

async function defaultFetch(account: string, silent: boolean): Promise<TenantEntry[] | null> {
  if (!silent) {
    const tenants = await apiGet<TenantEntry[]>(apiPaths.tenantSearch, { account });
    return Array.isArray(tenants) ? tenants : [];
  }
  const reply = await apiGet<{ code: number; data: unknown }>(apiPaths.tenantSearch, { account }, { raw: true });
  return isSuccessCode(reply.code) && Array.isArray(reply.data) ? (reply.data as TenantEntry[]) : null;
}
