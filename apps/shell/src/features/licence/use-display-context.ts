import { useTranslation } from '../../lib/use-translation.ts';
import { viewerUtcDiff } from '../../lib/time-format.ts';
import type { DisplayContext, Translate } from './licence-display.ts';

/** What the display rules need: the current language and the viewer's clock (lib/time-format.ts). */
export function useDisplayContext(): DisplayContext {
  const { t, i18n } = useTranslation();
  return { t: t as Translate, language: i18n.language, utcDiff: viewerUtcDiff() };
}
