import { useTranslation } from 'react-i18next';
import type { LanguageCode } from '@campus/contracts';
import { isLanguageCode } from '@campus/contracts';
import { languageOptions } from './i18n.ts';
import { changeLanguage } from './session.ts';

/**
 * The language picker: a native select (labelled "Language"), so keyboards, screen readers and
 * browser tests all handle it: `page.getByLabel('Language').selectOption('zh-MO')`.
 */
export function LanguagePicker({ onChanged }: { onChanged?: (language: LanguageCode) => void }) {
  const { t, i18n } = useTranslation();
  return (
    <span className="campus-language-picker">
      <select
        aria-label={t('common.language')}
        data-testid="language-picker"
        value={i18n.language}
        onChange={(event) => {
          const value = event.target.value;
          if (!isLanguageCode(value)) return;
          void changeLanguage(value).then(() => onChanged?.(value));
        }}
      >
        {languageOptions.map((option) => (
          <option key={option.code} value={option.code} lang={option.code}>
            {option.label}
          </option>
        ))}
      </select>
    </span>
  );
}
