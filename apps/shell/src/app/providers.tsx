import { useEffect, type ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { i18n } from '../lib/i18n.ts';

function DocumentLanguage() {
  const { t, i18n: instance } = useTranslation();
  useEffect(() => {
    document.documentElement.lang = instance.language;
    document.title = t('app.productName');
  }, [instance.language, t]);
  return null;
}

/**
 * What every page needs: translations. antd's providers and react-query live in `antd-root.tsx`, loaded
 * with the first route that uses them, so the login page's first load stays small.
 */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <DocumentLanguage />
      {children}
    </I18nextProvider>
  );
}
