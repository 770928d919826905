import { createHash } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { apiPaths, type IdentityProviderView, type SaveIdentityProviderRequest } from '@campus/contracts';
import { captchaText } from './env.ts';
import { demo } from './sign-in.ts';

/** A session of the tenant's system administrator through the API, as the administrator's screen would have one. */
export async function administratorHeaders(request: APIRequestContext): Promise<Record<string, string>> {
  const verifyKey = `e2e-sso-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  await request.get(`${apiPaths.captchaImage}?verifyKey=${verifyKey}`);
  const password = createHash('sha256').update(demo.sysadmin.password, 'utf8').digest('hex');
  const login = await request.post(apiPaths.webLogin, {
    data: { user: { account: demo.sysadmin.account, password, tenantCode: '1001' }, verifyModel: { verifyKey, imageVerifyCode: captchaText } },
  });
  const token = ((await login.json()) as { data: { loginInfo: { token: string } } }).data.loginInfo.token;
  return { token, tenantCode: '1001', language: 'en-US' };
}

/** Saves a provider of tenant 1001 as its administrator would; returns its view (id, the addresses to register). */
export async function saveProvider(request: APIRequestContext, headers: Record<string, string>, provider: SaveIdentityProviderRequest): Promise<IdentityProviderView> {
  const saved = await request.post(apiPaths.identityProviderSave, { headers, data: provider });
  return ((await saved.json()) as { data: IdentityProviderView }).data;
}
