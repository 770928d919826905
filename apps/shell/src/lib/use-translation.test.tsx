import { useEffect, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { createTranslator, type Translator } from './translator.ts';
import { useTranslator } from './use-translation.ts';

function translator(): Translator {
  const i18n = createTranslator({ language: 'en-US', fallbackLanguage: 'zh-CN', supportedLanguages: ['en-US', 'zh-CN'] });
  i18n.addResourceBundle('en-US', 'translation', { title: 'Sign in' });
  i18n.addResourceBundle('zh-CN', 'translation', { title: '登录' });
  return i18n;
}

/** Shows a text and a menu title, and counts how often an effect listing t ran. */
function Texts({ i18n, runs }: { i18n: Translator; runs: string[] }) {
  const { t, i18n: instance } = useTranslator(i18n);
  const [, setClicks] = useState(0);
  useEffect(() => {
    runs.push(instance.language);
  }, [t, instance, runs]);
  return (
    <>
      <h1>{t('title')}</h1>
      <p>{t('menu:qy-department')}</p>
      <button type="button" onClick={() => setClicks((clicks) => clicks + 1)}>
        again
      </button>
    </>
  );
}

describe('useTranslator', () => {
  it('draws again in the new language, with a new t (effects listing t run again)', async () => {
    const i18n = translator();
    const runs: string[] = [];
    render(<Texts i18n={i18n} runs={runs} />);
    expect(screen.getByRole('heading')).toHaveTextContent('Sign in');
    await act(() => i18n.changeLanguage('zh-CN'));
    expect(screen.getByRole('heading')).toHaveTextContent('登录');
    expect(runs).toEqual(['en-US', 'zh-CN']);
  });

  it('draws again when texts are added: a menu title shows once it is registered', () => {
    const i18n = translator();
    render(<Texts i18n={i18n} runs={[]} />);
    expect(screen.getByText('qy-department')).toBeInTheDocument();
    act(() => i18n.addResourceBundle('en-US', 'menu', { 'qy-department': 'Departments' }, true, true));
    expect(screen.getByText('Departments')).toBeInTheDocument();
  });

  it('keeps the same t while nothing changed', () => {
    const i18n = translator();
    const runs: string[] = [];
    render(<Texts i18n={i18n} runs={runs} />);
    act(() => screen.getByRole('button', { name: 'again' }).click());
    act(() => screen.getByRole('button', { name: 'again' }).click());
    expect(runs).toEqual(['en-US']);
  });

  it('stops listening when the component goes', () => {
    const i18n = translator();
    const off = vi.spyOn(i18n, 'off');
    const view = render(<Texts i18n={i18n} runs={[]} />);
    expect(off).not.toHaveBeenCalled();
    view.unmount();
    expect(off.mock.calls.map(([event]) => event).sort()).toEqual(['added', 'languageChanged']);
  });
});
