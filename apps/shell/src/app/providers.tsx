import { useEffect, useState, type ReactNode } from 'react';
import type { ProductInfo } from '@campus/contracts';
import { apiPaths } from '@campus/contracts';
import { useTranslation } from '../lib/use-translation.ts';
import { apiGet } from '../lib/request.ts';
import { afterPaint } from '../lib/after-paint.ts';

/**
 * The page's language, and its title: the product name GetSysInfos answers in that language (spec §7). The name
 * is asked for once per language, after the page has painted: the title is not worth a request on the way to the
 * first paint, and asking again whenever texts arrived (the menus' titles after sign-in) sent four requests while
 * the layout was being prepared (issue 27).
 */
function DocumentLanguage() {
  const { t, i18n: instance } = useTranslation();
  const language = instance.language;
  const [productName, setProductName] = useState<{ language: string; name: string } | null>(null);
  useEffect(() => {
    let current = true;
    const cancel = afterPaint(() => {
      apiGet<ProductInfo>(apiPaths.licenceSysInfos)
        .then((info) => {
          if (current && info?.productName) setProductName({ language, name: info.productName });
        })
        .catch(() => {
          // the translated product name stays
        });
    });
    return () => {
      current = false;
      cancel();
    };
  }, [language]);
  useEffect(() => {
    document.documentElement.lang = language;
    document.title = productName?.language === language ? productName.name : t('app.productName');
  }, [language, t, productName]);
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
