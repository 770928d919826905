import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { i18n } from './i18n.ts';

vi.mock('./request.ts', () => ({
  apiGet: vi.fn(async () => [
    { code: 'zh-CN', text: '简体中文' },
    { code: 'en-US', text: 'English' },
  ]),
}));
const { LanguagePicker } = await import('./language-picker.tsx');

function show() {
  render(<LanguagePicker />);
  return screen.getByTestId('language-picker') as HTMLSelectElement;
}

beforeEach(async () => {
  await i18n.changeLanguage('zh-CN');
});

describe('LanguagePicker', () => {
  it('lists the languages GetLanguageList offers', async () => {
    show();
    await vi.waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(2));
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['简体中文', 'English']);
  });

  it('a keyboard user browsing with the arrows switches nothing until Enter', async () => {
    const picker = show();
    await vi.waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(2));
    fireEvent.keyDown(picker, { key: 'ArrowDown' });
    fireEvent.change(picker, { target: { value: 'en-US' } });
    fireEvent.keyUp(picker, { key: 'ArrowDown' });
    expect(i18n.language).toBe('zh-CN');
    expect(picker.value).toBe('en-US');
    await act(async () => {
      fireEvent.keyDown(picker, { key: 'Enter' });
    });
    await vi.waitFor(() => expect(i18n.language).toBe('en-US'));
  });

  it('leaving the picker applies the option reached; a pointer choice applies at once', async () => {
    const picker = show();
    await vi.waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(2));
    fireEvent.keyDown(picker, { key: 'ArrowDown' });
    fireEvent.change(picker, { target: { value: 'en-US' } });
    fireEvent.keyUp(picker, { key: 'ArrowDown' });
    await act(async () => {
      fireEvent.blur(picker);
    });
    await vi.waitFor(() => expect(i18n.language).toBe('en-US'));
    await act(async () => {
      fireEvent.change(picker, { target: { value: 'zh-CN' } });
    });
    await vi.waitFor(() => expect(i18n.language).toBe('zh-CN'));
  });
});
