import { describe, expect, it } from 'vitest';
import { checkConfirm, checkNewPassword, checkOriginal, decodePolicyRegex, policyFrom, problemText } from './password-rules.ts';

/** The server's policy (spec §5): 8 to 20, a digit and a letter, no space at either end. */
const policySource = '^(?=.*\\d)(?=.*[A-Za-z])(?!\\s)(?!.*\\s$).{8,20}$';
const base64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));
const tip = '8 to 20 characters, at least one digit and one letter';
const policy = policyFrom({ regex: base64(policySource), tip });

describe('decodePolicyRegex', () => {
  it('decodes the base64 of a regex source', () => {
    const regex = decodePolicyRegex(base64(policySource));
    expect(regex?.source).toBe(new RegExp(policySource).source);
    expect(regex?.test('abc12345')).toBe(true);
    expect(regex?.test('abcdefgh')).toBe(false);
  });

  it('decodes UTF-8 sources', () => {
    const regex = decodePolicyRegex(base64('^[密码a-z]+$'));
    expect(regex?.test('密码abc')).toBe(true);
    expect(regex?.test('密码ABC')).toBe(false);
  });

  it('accepts a /source/flags literal and drops the stateful flags', () => {
    const regex = decodePolicyRegex(base64('/^[a-z]{3}$/gi'));
    expect(regex?.flags).toBe('i');
    expect(regex?.test('ABC')).toBe(true);
    expect(regex?.test('ABC')).toBe(true);
  });

  it.each([
    ['absent', undefined],
    ['null', null],
    ['empty', ''],
    ['blank', '   '],
    ['not base64', '%%%not base64%%%'],
    ['base64 of an invalid regex', base64('^(unclosed')],
    ['base64 of nothing', base64('')],
    ['bytes that are not UTF-8', btoa('\xff\xfe\xfd')],
  ])('gives null for %s, never throws', (_name, value) => {
    expect(decodePolicyRegex(value)).toBeNull();
  });
});

describe('policyFrom', () => {
  it('uses the regex and the tip', () => {
    expect(policy.pattern).toBeInstanceOf(RegExp);
    expect(policy.tip).toBe(tip);
  });
  it('while nothing is loaded: no regex, no tip', () => {
    expect(policyFrom(undefined)).toEqual({ pattern: null, tip: '' });
    expect(policyFrom({ regex: 'bad!', tip: null })).toEqual({ pattern: null, tip: '' });
  });
});

describe('checkOriginal', () => {
  it('is required', () => {
    expect(checkOriginal('')).toEqual({ key: 'account.originalRequired' });
    expect(checkOriginal(undefined)).toEqual({ key: 'account.originalRequired' });
    expect(checkOriginal(null)).toEqual({ key: 'account.originalRequired' });
    expect(checkOriginal('x')).toBeNull();
    expect(checkOriginal(' ')).toBeNull();
  });
});

describe('checkNewPassword', () => {
  it('empty: Please input New Password', () => {
    expect(checkNewPassword('', policy)).toEqual({ key: 'account.newRequired' });
    expect(checkNewPassword(undefined, policy)).toEqual({ key: 'account.newRequired' });
  });

  it.each(['short1', 'abcdefghij', '1234567890', ' abc12345', 'abc12345 ', 'a1'.repeat(11)])('%j fails with the server tip', (value) => {
    expect(checkNewPassword(value, policy)).toEqual({ text: tip });
  });

  it.each(['abc12345', 'Abc#2026x', 'a1 b2 c3 d4', 'A1'.repeat(10)])('%j passes', (value) => {
    expect(checkNewPassword(value, policy)).toBeNull();
  });

  it('without a regex, only required', () => {
    const none = policyFrom({ regex: '', tip });
    expect(checkNewPassword('x', none)).toBeNull();
    expect(checkNewPassword('', none)).toEqual({ key: 'account.newRequired' });
  });

  it('a mismatch without a tip gets the own message', () => {
    expect(checkNewPassword('x', { pattern: /^y$/, tip: ' ' })).toEqual({ key: 'account.policyMismatch' });
  });
});

describe('checkConfirm', () => {
  it('is required', () => {
    expect(checkConfirm('', 'abc12345')).toEqual({ key: 'account.confirmRequired' });
    expect(checkConfirm(undefined, 'abc12345')).toEqual({ key: 'account.confirmRequired' });
  });
  it('must equal the new password, exactly', () => {
    expect(checkConfirm('abc12346', 'abc12345')).toEqual({ key: 'account.inconsistent' });
    expect(checkConfirm('ABC12345', 'abc12345')).toEqual({ key: 'account.inconsistent' });
    expect(checkConfirm('abc12345', undefined)).toEqual({ key: 'account.inconsistent' });
    expect(checkConfirm('abc12345', 'abc12345')).toBeNull();
  });
});

describe('problemText', () => {
  it('translates keys and passes the server text through', () => {
    const t = (key: string) => `t:${key}`;
    expect(problemText({ key: 'account.newRequired' }, t)).toBe('t:account.newRequired');
    expect(problemText({ text: tip }, t)).toBe(tip);
  });
});
