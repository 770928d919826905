import { describe, expect, it } from 'vitest';
import type { IdentityProviderView } from '@campus/contracts';
import { fieldOfRefusal, formFromView, isWebAddress, providerName, requestFromForm, requestWithEnabled } from './provider-form.ts';

const oidc: IdentityProviderView = {
  id: 'idp-1',
  tenantCode: '1001',
  kind: 'oidc',
  name: { 'en-US': 'Campus ID', 'zh-CN': '校园统一身份', 'zh-MO': '校園統一身分' },
  enabled: false,
  oidc: { discoveryUrl: 'https://sso.example.edu/.well-known/openid-configuration', clientId: 'campus', scopes: 'openid email', accountClaim: 'employee_no', hasClientSecret: true },
  cas: null,
  callbackUrl: 'https://campus.example/iot-login/api/v1.0/SSO/OidcCallback',
  backchannelLogoutUrl: 'https://campus.example/iot-login/api/v1.0/SSO/BackchannelLogout?providerId=idp-1',
  updatedAt: 0,
};

describe('the identity provider dialog\'s fields', () => {
  it('a new provider starts as OpenID Connect, switched off, with the usual scopes and preferred_username', () => {
    const values = formFromView(null);
    expect(values).toMatchObject({ kind: 'oidc', enabled: false, scopes: 'openid profile email', claimChoice: 'preferred_username', clientSecret: '' });
    expect(values.name).toEqual({ 'zh-CN': '', 'zh-MO': '', 'en-US': '' });
  });

  it('a claim that is not one of the choices is "other", typed in', () => {
    expect(formFromView(oidc)).toMatchObject({ claimChoice: 'other', otherClaim: 'employee_no', clientSecret: '' });
    expect(requestFromForm(formFromView(oidc), 'idp-1').oidc?.accountClaim).toBe('employee_no');
  });

  it('sends the chosen kind only, trimmed, and leaves an empty secret out so the stored one is kept', () => {
    const values = { ...formFromView(oidc), discoveryUrl: '  https://sso.example.edu/.well-known/openid-configuration ', scopes: ' openid   email  profile ', claimChoice: 'email' as const, serverUrl: 'https://cas.example.edu/cas' };
    const request = requestFromForm(values, 'idp-1');
    expect(request).toEqual({
      id: 'idp-1',
      kind: 'oidc',
      name: oidc.name,
      enabled: false,
      oidc: { discoveryUrl: 'https://sso.example.edu/.well-known/openid-configuration', clientId: 'campus', scopes: 'openid email profile', accountClaim: 'email' },
    });
    expect(requestFromForm({ ...values, clientSecret: 's3cret ' }, null)).toMatchObject({ oidc: { clientSecret: 's3cret ' } });
    expect(requestFromForm({ ...values, clientSecret: 's3cret' }, null)).not.toHaveProperty('id');
  });

  it('a CAS provider sends its server and attribute (\'\' = the CAS user)', () => {
    const request = requestFromForm({ ...formFromView(null), kind: 'cas', name: { 'en-US': 'CAS', 'zh-CN': 'CAS', 'zh-MO': 'CAS' }, serverUrl: 'https://cas.example.edu/cas ', accountAttribute: ' ' }, null);
    expect(request).toEqual({ kind: 'cas', name: { 'en-US': 'CAS', 'zh-CN': 'CAS', 'zh-MO': 'CAS' }, enabled: false, cas: { serverUrl: 'https://cas.example.edu/cas', accountAttribute: '' } });
  });

  it('the list\'s switch changes only enabled, keeping the secret', () => {
    const request = requestWithEnabled(oidc, true);
    expect(request).toMatchObject({ id: 'idp-1', enabled: true, oidc: { accountClaim: 'employee_no', clientId: 'campus' } });
    expect(request.oidc).not.toHaveProperty('clientSecret');
  });

  it('names a provider in the viewer\'s language, else in one that is given', () => {
    expect(providerName(oidc.name, 'zh-MO')).toBe('校園統一身分');
    expect(providerName({ 'en-US': '', 'zh-CN': '统一身份', 'zh-MO': '' }, 'en-US')).toBe('统一身份');
  });

  it('takes http(s) addresses only', () => {
    expect(isWebAddress('https://sso.example.edu/x')).toBe(true);
    expect(isWebAddress('http://127.0.0.1:9000/cas')).toBe(true);
    for (const value of ['sso.example.edu', 'ftp://x.example', 'javascript:alert(1)', '']) expect(isWebAddress(value), value).toBe(false);
  });

  it('puts the server\'s refusal beside the field it names', () => {
    expect(fieldOfRefusal({ field: 'oidc.discoveryUrl' }, { claimChoice: 'email' })).toBe('discoveryUrl');
    expect(fieldOfRefusal({ field: 'serverUrl' }, { claimChoice: 'email' })).toBe('serverUrl');
    expect(fieldOfRefusal({ field: 'name.zh-MO' }, { claimChoice: 'email' })).toEqual(['name', 'zh-MO']);
    expect(fieldOfRefusal({ field: 'oidc.accountClaim' }, { claimChoice: 'other' })).toBe('otherClaim');
    expect(fieldOfRefusal({ field: 'oidc.accountClaim' }, { claimChoice: 'email' })).toBe('claimChoice');
    for (const data of [null, {}, { field: 42 }, { field: 'name.fr' }, { field: 'tenantCode' }]) expect(fieldOfRefusal(data, { claimChoice: 'email' })).toBeNull();
  });
});
