import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { browserLanguage } from '../../src/http/browser-language.ts';

const request = (headers: Record<string, string>, lang = 'zh-CN') => ({ headers, lang }) as unknown as FastifyRequest;

describe('the language of a page the browser navigates to on its own', () => {
  it("follows the shell's language header when there is one", () => {
    expect(browserLanguage(request({ language: 'en-US', 'accept-language': 'zh-CN' }, 'en-US'))).toBe('en-US');
  });

  it("otherwise the browser's Accept-Language, in its order of preference", () => {
    expect(browserLanguage(request({ 'accept-language': 'en-US,en;q=0.9' }))).toBe('en-US');
    expect(browserLanguage(request({ 'accept-language': 'fr-FR, en-GB;q=0.8, zh-CN;q=0.9' }))).toBe('zh-CN');
    expect(browserLanguage(request({ 'accept-language': 'zh-TW' }))).toBe('zh-MO');
    expect(browserLanguage(request({ 'accept-language': 'zh-Hant-HK,zh;q=0.5' }))).toBe('zh-MO');
    expect(browserLanguage(request({ 'accept-language': 'en;q=0, zh-MO;q=0.3' }))).toBe('zh-MO');
  });

  it('and the default where the browser names no language of the shell', () => {
    expect(browserLanguage(request({ 'accept-language': 'fr-FR, de' }))).toBe('zh-CN');
    expect(browserLanguage(request({ 'accept-language': '*' }))).toBe('zh-CN');
    expect(browserLanguage(request({}))).toBe('zh-CN');
  });
});
