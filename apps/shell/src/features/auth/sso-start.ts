import type { LanguageCode } from '@campus/contracts';
import { apiPaths } from '@campus/contracts';
import { safeRedirectTarget } from '../../lib/paths.ts';

export interface SsoStartInput {
  providerId: string;
  /** The tenant of the login page's settings (TenantSettings.code). */
  tenantCode: string;
  /** The login page's fromPath, as it came in the address; kept only when it is a same-origin path. */
  fromPath: string | null;
  /** The language the page shows: the provider's round trip and its failures speak it (issue 49). */
  lang: LanguageCode;
}

/**
 * The address of the server's Start (GET ssoStart): the browser goes there itself, a full navigation, and the
 * server answers 302 to the provider's login. A fromPath that is not same-origin is left out, as the login page
 * itself would not follow it (lib/paths.ts).
 */
export function ssoStartUrl(input: SsoStartInput): string {
  const query = new URLSearchParams({ providerId: input.providerId, tenantCode: input.tenantCode });
  const fromPath = safeRedirectTarget(input.fromPath);
  if (fromPath) query.set('fromPath', fromPath);
  query.set('lang', input.lang);
  return `${apiPaths.ssoStart}?${query.toString()}`;
}
