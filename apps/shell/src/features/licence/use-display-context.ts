import { useTranslation } from 'react-i18next';
import * as storage from '../../lib/storage.ts';
import type { DisplayContext, Translate } from './licence-display.ts';

/** What the display rules need: the current language and the user's calendar (utcDiff). */
export function useDisplayContext(): DisplayContext {
  const { t, i18n } = useTranslation();
  return { t: t as Translate, language: i18n.language, utcDiff: storage.utcDiff.get() };
}
