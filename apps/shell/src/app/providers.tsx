import { useEffect, type ReactNode } from 'react';
import type { ProductInfo } from '@campus/contracts';
import { apiPaths } from '@campus/contracts';
import { useTranslation } from '../lib/use-translation.ts';
import { apiGet } from '../lib/request.ts';

/** The page's language, and its title: the product name GetSysInfos answers in that language (spec §7). */
function DocumentLanguage() {
  const { t, i18n: instance } = useTranslation();
  useEffect(() => {
    let current = true;
    document.documentElement.lang = instance.language;
    document.title = t('app.productName');
    apiGet<ProductInfo>(apiPaths.licenceSysInfos)
      .then((info) => {
        if (current && info?.productName) document.title = info.productName;
      })
      .catch(() => {
        // the translated product name stays
      });
    return () => {
      current = false;
    };
  }, [instance.language, t]);
  return null;
}

/**
 * What every page needs: the page's language and title (the texts need no provider: lib/use-translation.ts).
 * antd's providers and react-query live in `antd-root.tsx`, loaded with the first route that uses them, so the
 * login page's first load stays small.
 */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <>
      <DocumentLanguage />
      {children}
    </>
  );
}
