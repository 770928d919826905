import { describe, expect, it } from 'vitest';
import { decideLanding } from './landing-decision.ts';

const decide = (query: string) => decideLanding(new URLSearchParams(query));

describe('the external sign-in landing (/not-login)', () => {
  it('exchanges a ticket that came with a tenant and a success code', () => {
    expect(decide('token=t1&tenantCode=1001&code=0')).toEqual({ kind: 'exchange', ticket: 't1', tenantCode: '1001', fromPath: null });
    expect(decide('token=t1&tenantCode=1001&code=200&fromPath=%2Fqy%2FhomePage')).toEqual({ kind: 'exchange', ticket: 't1', tenantCode: '1001', fromPath: '/qy/homePage' });
  });

  it('keeps fromPath only when it is a same-origin path', () => {
    for (const fromPath of ['https://evil.example/', '//evil.example', '/%2F%2Fevil.example', 'javascript:alert(1)']) {
      const decision = decide(`token=t&tenantCode=1001&code=0&fromPath=${encodeURIComponent(fromPath)}`);
      expect(decision, fromPath).toEqual({ kind: 'exchange', ticket: 't', tenantCode: '1001', fromPath: null });
    }
  });

  it('goes to /error with the message of a code that is not a success', () => {
    expect(decide(`code=328&msg=${encodeURIComponent('link expired')}`)).toEqual({ kind: 'refuse', message: 'link expired' });
    // a failure code wins over a ticket that came with it
    expect(decide('token=t&tenantCode=1001&code=326&msg=no+account')).toEqual({ kind: 'refuse', message: 'no account' });
  });

  it('refuses a landing without a ticket, a tenant or a readable code', () => {
    for (const query of ['tenantCode=1001&code=0', 'token=t&code=0', 'token=t&tenantCode=1001', 'token=t&tenantCode=1001&code=', 'token=t&tenantCode=1001&code=0x0', 'token=t&tenantCode=1001&code=1.5']) {
      expect(decide(query), query).toEqual({ kind: 'refuse', message: '' });
    }
  });
});
