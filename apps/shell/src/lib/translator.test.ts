import { describe, expect, it, vi } from 'vitest';
import { createTranslator } from './translator.ts';

function translator(language = 'en-US') {
  const i18n = createTranslator({ language, fallbackLanguage: 'zh-CN', supportedLanguages: ['en-US', 'zh-CN', 'zh-MO'] });
  i18n.addResourceBundle('en-US', 'translation', {
    login: { title: 'Sign in', welcome: 'Welcome, {{name}}', both: '{{ from }} to {{to}}, then {{from}} again' },
    cards: { selected_one: '{{count}} card selected', selected_other: '{{count}} cards selected', total: '{{count}} in all' },
    markup: 'Shown as typed: {{value}}',
    empty: '',
  });
  i18n.addResourceBundle('zh-CN', 'translation', {
    login: { title: '登录', onlyChinese: '仅中文' },
    cards: { selected_other: '已选 {{count}} 张卡' },
  });
  return i18n;
}

describe('placeholders', () => {
  it('are filled by name, with spaces inside the braces or not, each time they appear', () => {
    const { t } = translator();
    expect(t('login.welcome', { name: 'Ann' })).toBe('Welcome, Ann');
    expect(t('login.both', { from: 'May', to: 'June' })).toBe('May to June, then May again');
    expect(t('login.welcome', { name: 7 })).toBe('Welcome, 7');
  });

  it('take the value as it is: no HTML escaping (React escapes) and no replacement patterns', () => {
    const { t } = translator();
    expect(t('markup', { value: '<b>A & B</b>' })).toBe('Shown as typed: <b>A & B</b>');
    expect(t('markup', { value: "$& $1 $' {{value}}" })).toBe("Shown as typed: $& $1 $' {{value}}");
  });

  it('a value not given leaves its placeholder as i18next did; null leaves nothing', () => {
    const { t } = translator();
    expect(t('login.welcome')).toBe('Welcome, {{name}}');
    expect(t('login.welcome', { other: 'x' })).toBe('Welcome, {{name}}');
    expect(t('login.welcome', { name: null })).toBe('Welcome, ');
  });
});

describe('plural forms', () => {
  it('en-US: _one for 1, _other for 0 and 2, with {{count}} filled', () => {
    const { t } = translator();
    expect(t('cards.selected', { count: 1 })).toBe('1 card selected');
    expect(t('cards.selected', { count: 0 })).toBe('0 cards selected');
    expect(t('cards.selected', { count: 2 })).toBe('2 cards selected');
  });

  it('zh-CN has one form, _other, for every count', () => {
    const i18n = translator('zh-CN');
    expect(i18n.t('cards.selected', { count: 1 })).toBe('已选 1 张卡');
    expect(i18n.t('cards.selected', { count: 3 })).toBe('已选 3 张卡');
  });

  it('a key without plural forms is used as it is', () => {
    expect(translator().t('cards.total', { count: 1 })).toBe('1 in all');
  });
});

describe('a missing text', () => {
  it('is the default value when one is given, filled like a text', () => {
    const { t } = translator();
    expect(t('cardSetup.cardState.9', { defaultValue: 'state {{code}}', code: 9 })).toBe('state 9');
    expect(t('login.title', { defaultValue: 'unused' })).toBe('Sign in');
    // an empty text is a text
    expect(t('empty', { defaultValue: 'unused' })).toBe('');
  });

  it('is its key otherwise, without the namespace', () => {
    const { t } = translator();
    expect(t('login.nothing')).toBe('login.nothing');
    expect(t('menu:qy-department')).toBe('qy-department');
  });

  it('comes from the fallback language (zh-CN) when its texts are in, else it is the key', () => {
    expect(translator('en-US').t('login.onlyChinese')).toBe('仅中文');
    const i18n = createTranslator({ language: 'en-US', fallbackLanguage: 'zh-CN', supportedLanguages: ['en-US', 'zh-CN'] });
    i18n.addResourceBundle('en-US', 'translation', { login: { title: 'Sign in' } });
    expect(i18n.t('login.onlyChinese')).toBe('login.onlyChinese');
    expect(i18n.t('cards.selected', { count: 2 })).toBe('cards.selected');
  });

  it('a key naming a group of texts is not a text: the key is shown', () => {
    expect(translator().t('login')).toBe('login');
  });

  it('inherited object properties are no texts', () => {
    const { t } = translator();
    expect(t('constructor')).toBe('constructor');
    expect(t('login.title.length')).toBe('login.title.length');
  });

  it('a text with spaces shows whole, colon included (a server message is no namespaced key)', () => {
    expect(translator().t('Error: the token expired')).toBe('Error: the token expired');
  });
});

describe('languages', () => {
  it('lng translates into another language than the one shown', () => {
    const i18n = translator('en-US');
    expect(i18n.t('login.title', { lng: 'zh-CN' })).toBe('登录');
    expect(i18n.t('cards.selected', { count: 1, lng: 'zh-CN' })).toBe('已选 1 张卡');
    expect(i18n.language).toBe('en-US');
  });

  it('getFixedT stays in its language while the shown one changes; an lng option still wins', async () => {
    const i18n = translator('en-US');
    const chinese = i18n.getFixedT('zh-CN');
    expect(chinese('login.title')).toBe('登录');
    await i18n.changeLanguage('zh-MO');
    expect(i18n.getFixedT('en-US')('login.title')).toBe('Sign in');
    expect(chinese('login.title', { lng: 'en-US' })).toBe('Sign in');
  });

  it('zh-MO without a text of its own shows the fallback zh-CN', async () => {
    const i18n = translator();
    await i18n.changeLanguage('zh-MO');
    expect(i18n.t('login.title')).toBe('登录');
    i18n.addResourceBundle('zh-MO', 'translation', { login: { title: '登入' } });
    expect(i18n.t('login.title')).toBe('登入');
  });

  it('a language not supported becomes the supported one of its family, else the fallback', async () => {
    const i18n = translator('en-GB');
    expect(i18n.language).toBe('en-US');
    await i18n.changeLanguage('zh-mo');
    expect(i18n.language).toBe('zh-MO');
    await i18n.changeLanguage('fr');
    expect(i18n.language).toBe('zh-CN');
    expect(i18n.t('login.title', { lng: 'en' })).toBe('Sign in');
  });

  it('changeLanguage switches at once, tells the languageChanged listeners and resolves with t', async () => {
    const i18n = translator('en-US');
    const heard = vi.fn();
    i18n.on('languageChanged', heard);
    const switched = i18n.changeLanguage('zh-CN');
    expect(i18n.language).toBe('zh-CN');
    expect(heard).toHaveBeenCalledWith('zh-CN');
    expect((await switched)('login.title')).toBe('登录');
    // the language already shown is no change
    await i18n.changeLanguage('zh-CN');
    expect(heard).toHaveBeenCalledTimes(1);
    i18n.off('languageChanged', heard);
    await i18n.changeLanguage('en-US');
    expect(heard).toHaveBeenCalledTimes(1);
  });
});

describe('namespaces and bundles', () => {
  it('menu titles live in namespaces of their own, read as ns:key; a dotted id is found whole', () => {
    const i18n = translator();
    i18n.addResourceBundle('en-US', 'menu', { 'qy-department': 'Departments', 'qy.staff': 'Staff', title: 'Menu title' }, true, true);
    i18n.addResourceBundle('en-US', 'menu-system', { qy: 'Enterprise' }, true, true);
    expect(i18n.t('menu:qy-department')).toBe('Departments');
    expect(i18n.t('menu:qy.staff')).toBe('Staff');
    expect(i18n.t('menu-system:qy')).toBe('Enterprise');
    expect(i18n.t('menu:title')).toBe('Menu title');
    expect(i18n.t('title')).toBe('title');
  });

  it('hasResourceBundle tells which language and namespace have texts', () => {
    const i18n = translator();
    expect(i18n.hasResourceBundle('en-US', 'translation')).toBe(true);
    expect(i18n.hasResourceBundle('zh-MO', 'translation')).toBe(false);
    expect(i18n.hasResourceBundle('en-US', 'menu')).toBe(false);
  });

  it('deep adds merge into the nested texts; only overwrite replaces a text already there', () => {
    const i18n = translator();
    i18n.addResourceBundle('en-US', 'translation', { login: { title: 'Log in', help: 'Ask the office' } }, true, false);
    expect(i18n.t('login.title')).toBe('Sign in');
    expect(i18n.t('login.help')).toBe('Ask the office');
    expect(i18n.t('login.welcome', { name: 'Ann' })).toBe('Welcome, Ann');
    i18n.addResourceBundle('en-US', 'translation', { login: { title: 'Log in' } }, true, true);
    expect(i18n.t('login.title')).toBe('Log in');
    expect(i18n.t('login.help')).toBe('Ask the office');
  });

  it('a shallow add replaces whole top-level entries', () => {
    const i18n = translator();
    i18n.addResourceBundle('en-US', 'translation', { login: { help: 'Ask the office' } });
    expect(i18n.t('login.help')).toBe('Ask the office');
    expect(i18n.t('login.welcome')).toBe('login.welcome');
    expect(i18n.t('markup', { value: 1 })).toBe('Shown as typed: 1');
  });

  it("merging leaves the caller's objects as they were", () => {
    const i18n = translator();
    const first = { group: { a: 'A' } };
    i18n.addResourceBundle('en-US', 'extra', first, true, true);
    i18n.addResourceBundle('en-US', 'extra', { group: { b: 'B' } }, true, true);
    expect(first).toEqual({ group: { a: 'A' } });
    expect([i18n.t('extra:group.a'), i18n.t('extra:group.b')]).toEqual(['A', 'B']);
  });

  it('any id is a plain key, __proto__ included', () => {
    const i18n = translator();
    i18n.addResourceBundle('en-US', 'menu', JSON.parse('{"__proto__": "Odd page", "constructor": "Builder"}') as Record<string, unknown>, true, true);
    expect(i18n.t('menu:__proto__')).toBe('Odd page');
    expect(i18n.t('menu:constructor')).toBe('Builder');
  });

  it('tells the added listeners which language got texts, and counts the change', () => {
    const i18n = translator();
    const heard = vi.fn();
    const before = i18n.revision;
    i18n.on('added', heard);
    i18n.addResourceBundle('zh-MO', 'menu', { a: '甲' }, true, true);
    expect(heard).toHaveBeenCalledWith('zh-MO');
    expect(i18n.revision).toBeGreaterThan(before);
  });
});
