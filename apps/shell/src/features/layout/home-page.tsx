import { useEffect, useRef } from 'react';
import { Alert } from 'antd';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from '../../lib/use-translation.ts';
import * as storage from '../../lib/storage.ts';
import { useMenuStore } from '../../lib/menus.ts';
import { decideHome } from '../../lib/home-decision.ts';
import { PageSpinner } from '../../lib/loading-spinner.tsx';

/** /home: decides which sub-application to enter (spec §2 "Home"). */
export default function HomePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const systems = useMenuStore((state) => state.systems);
  const pages = useMenuStore((state) => state.pages);
  const loaded = useMenuStore((state) => state.loaded);
  const licenceAbnormal = storage.licenceAbnormal.get();
  const handled = useRef<string | null>(null);
  const toPath = params.get('toPath');
  const isOut = params.get('isOut');

  const decision = loaded && !licenceAbnormal ? decideHome({ toPath, isOut, systems, pages }) : null;

  useEffect(() => {
    if (!decision) return;
    const key = `${toPath ?? ''}|${isOut ?? ''}`;
    if (handled.current === key) return;
    handled.current = key;
    if (decision.kind === 'open-window') {
      window.open(decision.url, '_blank', 'noopener,noreferrer');
    } else if (decision.kind === 'navigate') {
      storage.currentMenu.set(decision.appNo);
      storage.currentPage.set(decision.pagePath);
      void navigate(decision.to, { replace: true });
    }
  }, [decision, isOut, navigate, toPath]);

  if (licenceAbnormal) {
    return <Alert type="warning" showIcon title={t('home.licenceAbnormal')} />;
  }
  if (!decision || decision.kind === 'navigate') {
    return <PageSpinner />;
  }
  return <p>{decision.kind === 'open-window' ? t('home.openedInNewWindow') : t('home.nothingToOpen')}</p>;
}
