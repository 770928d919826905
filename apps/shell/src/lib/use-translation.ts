import { useCallback, useSyncExternalStore } from 'react';
import type { TranslateFunction, Translator } from './translator.ts';
import { i18n } from './i18n.ts';

export interface Translation {
  /** `t` in the language shown: a new function whenever the language changes or texts arrive, so that the effects and memos listing it run again. */
  t: TranslateFunction;
  i18n: Translator;
}

const latest = new WeakMap<Translator, { revision: number; translation: Translation }>();

/** The same object until the translator's language or texts change (useSyncExternalStore compares snapshots by identity). */
function translationOf(translator: Translator): Translation {
  const cached = latest.get(translator);
  if (cached?.revision === translator.revision) return cached.translation;
  const translation = { t: translator.getFixedT(translator.language), i18n: translator };
  latest.set(translator, { revision: translator.revision, translation });
  return translation;
}

/** The texts of `translator`; the component draws again when the language changes or texts are added (menu titles come after sign-in). */
export function useTranslator(translator: Translator): Translation {
  const subscribe = useCallback(
    (onChange: () => void) => {
      translator.on('languageChanged', onChange);
      translator.on('added', onChange);
      return () => {
        translator.off('languageChanged', onChange);
        translator.off('added', onChange);
      };
    },
    [translator],
  );
  return useSyncExternalStore(subscribe, () => translationOf(translator));
}

/** The shell's texts (lib/i18n.ts). */
export function useTranslation(): Translation {
  return useTranslator(i18n);
}
