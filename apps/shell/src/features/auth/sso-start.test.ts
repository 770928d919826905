import { describe, expect, it } from 'vitest';
import { apiPaths } from '@campus/contracts';
import { ssoStartUrl } from './sso-start.ts';

const query = (url: string) => new URL(url, 'http://shell.test').searchParams;

describe('the address of an identity provider sign-in (Start)', () => {
  it('is the server path with the provider, the tenant, the target and the language', () => {
    const url = ssoStartUrl({ providerId: 'p 1&x', tenantCode: '1001', fromPath: '/qy/operate-log?tab=2', lang: 'zh-MO' });
    expect(url.startsWith(`${apiPaths.ssoStart}?`)).toBe(true);
    const params = query(url);
    expect(params.get('providerId')).toBe('p 1&x');
    expect(params.get('tenantCode')).toBe('1001');
    expect(params.get('fromPath')).toBe('/qy/operate-log?tab=2');
    expect(params.get('lang')).toBe('zh-MO');
  });

  it('leaves out a target that is not a same-origin path', () => {
    for (const fromPath of ['https://evil.example/', '//evil.example/x', '/\\evil.example', '/%2F%2Fevil.example', 'qy/page', ' /qy']) {
      expect(query(ssoStartUrl({ providerId: 'p', tenantCode: '1001', fromPath, lang: 'en-US' })).has('fromPath'), fromPath).toBe(false);
    }
  });

  it('leaves out a missing target', () => {
    const params = query(ssoStartUrl({ providerId: 'p', tenantCode: '', fromPath: null, lang: 'en-US' }));
    expect([...params.keys()]).toEqual(['providerId', 'tenantCode', 'lang']);
  });
});
