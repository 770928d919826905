import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  localStorage.clear();
  document.documentElement.lang = '';
  vi.resetModules();
});

/** i18n as a fresh page load evaluates it (main.tsx imports it before React renders anything). */
async function freshLoad() {
  vi.resetModules();
  return (await import('./i18n.ts')).i18n;
}

describe('the language before the first paint', () => {
  it('the stored choice is the language of the texts and of <html lang> as soon as i18n is loaded', async () => {
    document.documentElement.lang = 'zh-CN'; // as index.html ships
    localStorage.setItem('campus.language', 'zh-MO');
    const i18n = await freshLoad();
    expect(i18n.language).toBe('zh-MO');
    expect(document.documentElement.lang).toBe('zh-MO');
  });

  it("without a stored choice, the browser's language", async () => {
    document.documentElement.lang = 'zh-CN';
    const languages = vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['en-GB', 'zh-CN']);
    const i18n = await freshLoad();
    expect(i18n.language).toBe('en-US');
    expect(document.documentElement.lang).toBe('en-US');
    languages.mockRestore();
  });
});

describe('one language at a time', () => {
  it('a page load fetches the texts of its language only; another language comes when chosen, before it is shown', async () => {
    localStorage.setItem('campus.language', 'en-US');
    vi.resetModules();
    const module = await import('./i18n.ts');
    await module.firstLanguageReady;
    expect(module.i18n.t('login.captcha')).toBe('Verification code');
    expect(module.i18n.hasResourceBundle('zh-MO', 'translation')).toBe(false);
    expect(module.i18n.hasResourceBundle('zh-CN', 'translation')).toBe(false);
    await module.applyLanguage('zh-MO');
    expect(module.i18n.language).toBe('zh-MO');
    expect(module.i18n.t('login.captcha')).toBe('驗證碼');
  });
});
