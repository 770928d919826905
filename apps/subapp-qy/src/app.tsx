import { useMemo } from 'react';
import type { SubAppContext } from '@campus/subapp-sdk';
import { useShellLanguage } from '@campus/subapp-sdk/react';
import { QyContext, type Qy } from './lib/qy-context.ts';
import { translator } from './lib/i18n.ts';
import { pageFor } from './lib/routes.ts';
import { useAppPath } from './lib/use-app-path.ts';
import { HomePage } from './pages/home-page.tsx';
import { OperateLogPage } from './pages/operate-log-page.tsx';
import { UnknownPage } from './pages/unknown-page.tsx';

/** The sub-app: the page of the current path, in the shell's current language. */
export function App({ context }: { context: SubAppContext }) {
  const { props } = context;
  const language = useShellLanguage(context);
  const path = useAppPath(props.basePath);
  const qy = useMemo<Qy>(() => ({ props, language, t: translator(language) }), [props, language]);
  const page = pageFor(path);
  return (
    <QyContext.Provider value={qy}>
      <div className="qy-app" lang={language}>
        {page === 'home' ? <HomePage /> : page === 'operate-log' ? <OperateLogPage /> : <UnknownPage path={path} />}
      </div>
    </QyContext.Provider>
  );
}
