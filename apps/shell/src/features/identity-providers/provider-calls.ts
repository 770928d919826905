import { useQuery } from '@tanstack/react-query';
import type { IdentityProviderTestResult, IdentityProviderView, SaveIdentityProviderRequest } from '@campus/contracts';
import { apiGet, apiPost, RequestError } from '../../lib/request.ts';
import { apiPaths } from '@campus/contracts';
import { i18n } from '../../lib/i18n.ts';

// The tenant's identity providers (issue 49), kept by its system administrator; the server checks who may.
// Every call is quiet: the screen shows the server's refusal where it belongs (the list, the dialog).

export const providersKey = ['identity-providers'] as const;

/** GET identityProviderList → the caller's tenant's providers, never with a client secret. */
export function useIdentityProviders(enabled: boolean) {
  return useQuery({
    queryKey: providersKey,
    queryFn: async () => (await apiGet<IdentityProviderView[] | null>(apiPaths.identityProviderList, undefined, { quiet: true })) ?? [],
    retry: false,
    staleTime: 0,
    enabled,
  });
}

/** POST identityProviderSave: creates (no id) or changes a provider; answers it as stored. */
export function saveProvider(request: SaveIdentityProviderRequest): Promise<IdentityProviderView> {
  return apiPost<IdentityProviderView>(apiPaths.identityProviderSave, request, { quiet: true });
}

/** POST identityProviderDelete {id}. */
export function deleteProvider(id: string): Promise<unknown> {
  return apiPost(apiPaths.identityProviderDelete, { id }, { quiet: true });
}

/** POST identityProviderTest with the settings as they stand in the dialog (the id lets a kept secret be used). */
export function testProvider(request: SaveIdentityProviderRequest): Promise<IdentityProviderTestResult> {
  return apiPost<IdentityProviderTestResult>(apiPaths.identityProviderTest, request, { quiet: true });
}

/** What a refused call says: the server's message, else that the request failed. */
export function refusalText(error: unknown): string {
  if (error instanceof RequestError && error.code !== null && error.message) return error.message;
  return i18n.t('request.internalError');
}
