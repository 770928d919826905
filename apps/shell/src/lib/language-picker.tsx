import { useEffect, useState, type KeyboardEvent } from 'react';
import type { LanguageCode } from '@campus/contracts';
import { apiPaths, isLanguageCode } from '@campus/contracts';
import { useTranslation } from './use-translation.ts';
import { languageOptions } from './i18n.ts';
import { apiGet } from './request.ts';
import { changeLanguage } from './session.ts';

type LanguageOption = { code: LanguageCode; label: string };

let listed: Promise<LanguageOption[]> | null = null;

/** The languages GetLanguageList offers (spec §7), once per page view; the built-in three until it answers. */
function loadLanguages(): Promise<LanguageOption[]> {
  listed ??= apiGet<{ code: string; text: string }[]>(apiPaths.languages)
    .then((list) => {
      const offered = (list ?? []).filter((entry) => isLanguageCode(entry.code)).map((entry) => ({ code: entry.code as LanguageCode, label: entry.text }));
      return offered.length > 0 ? offered : languageOptions;
    })
    .catch(() => {
      listed = null;
      return languageOptions;
    });
  return listed;
}

/** Keys that move through a closed select's options: they choose nothing until Enter or leaving the list. */
const browsingKeys = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']);

/**
 * The language picker: a native select (labelled "Language"), so keyboards, screen readers and browser tests
 * all handle it: `page.getByLabel('Language').selectOption('zh-MO')`. A pointer choice applies at once; a
 * keyboard user moving through the options applies the one reached with Enter or on leaving the picker, so
 * the interface does not switch language at every arrow key.
 */
export function LanguagePicker({ onChanged }: { onChanged?: (language: LanguageCode) => void }) {
  const { t, i18n } = useTranslation();
  const [options, setOptions] = useState<LanguageOption[]>(languageOptions);
  const [pending, setPending] = useState<LanguageCode | null>(null);
  const [browsing, setBrowsing] = useState(false);
  useEffect(() => {
    let current = true;
    void loadLanguages().then((loaded) => current && setOptions(loaded));
    return () => {
      current = false;
    };
  }, []);

  const apply = (value: LanguageCode) => {
    setPending(null);
    if (value !== i18n.language) void changeLanguage(value).then(() => onChanged?.(value));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLSelectElement>) => {
    if (browsingKeys.has(event.key)) setBrowsing(true);
    else if (event.key === 'Enter' && pending) {
      event.preventDefault();
      apply(pending);
    }
  };

  return (
    <span className="campus-language-picker">
      <select
        aria-label={t('common.language')}
        data-testid="language-picker"
        value={pending ?? i18n.language}
        onKeyDown={onKeyDown}
        onKeyUp={() => setBrowsing(false)}
        onBlur={() => pending && apply(pending)}
        onChange={(event) => {
          const value = event.target.value;
          if (!isLanguageCode(value)) return;
          if (browsing) setPending(value);
          else apply(value);
        }}
      >
        {options.map((option) => (
          <option key={option.code} value={option.code} lang={option.code}>
            {option.label}
          </option>
        ))}
      </select>
    </span>
  );
}
