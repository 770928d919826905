import { Button, Result } from 'antd';
import { useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from '../../lib/use-translation.ts';
import { NotFoundImage } from '../../lib/not-found-image.tsx';
import { LoadingSpinner } from '../../lib/loading-spinner.tsx';
import { findMenuPage, isAlwaysAcceptedPath, systemLabelKey, useMenuStore } from '../../lib/menus.ts';
import { subAppContainerId, subAppForPath, useSubAppStore, type SubAppFailure } from '../../lib/sub-apps.ts';
import './sub-app-viewport.css';

interface FailureProps {
  system: string;
  failure: SubAppFailure | 'registry';
  detail?: string;
  /** What the failure's text names besides the system (the sub-app and its version, SDK versions). */
  params?: Record<string, string>;
  onRetry: () => void;
}

function Failure({ system, failure, detail, params, onRetry }: FailureProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      className="campus-subapp-status"
      status={failure === 'not-installed' ? 'info' : 'warning'}
      icon={failure === 'not-installed' ? <NotFoundImage /> : undefined}
      // the layout's h1 names the page: this is its one heading below it
      title={<h2 className="campus-result-title">{t(`subApps.${failure}.title`, { ...params, system })}</h2>}
      subTitle={
        <>
          <p>{t(`subApps.${failure}.text`, { ...params, system })}</p>
          {/* what the loader saw helps whoever fixes a broken build; "not installed" says all there is to say */}
          {detail && failure !== 'not-installed' ? <p className="campus-subapp-status__detail">{detail}</p> : null}
        </>
      }
      extra={[
        <Button key="retry" type="primary" onClick={onRetry}>
          {t('common.retry')}
        </Button>,
        <Button key="home" onClick={() => void navigate('/home')}>
          {t('subApps.goHome')}
        </Button>,
      ]}
    />
  );
}

/**
 * The sub-application area of the content (DESIGN §8): the loader's container, always in the DOM, and above
 * it what the user should know while an application loads or when it cannot show (never a blank area).
 */
export function SubAppViewport({ onRetryRegistry }: { onRetryRegistry: () => void }) {
  const { t } = useTranslation();
  const location = useLocation();
  const pages = useMenuStore((state) => state.pages);
  const apps = useSubAppStore((state) => state.apps);
  const registryFailed = useSubAppStore((state) => state.registryFailed);
  const phases = useSubAppStore((state) => state.phases);

  const page = findMenuPage(pages, location.pathname);
  const wantsSubApp = (Boolean(page) && !page?.meta.frameUrl) || isAlwaysAcceptedPath(location.pathname);
  const app = apps ? subAppForPath(apps, location.pathname, pages) : undefined;
  const phase = app ? phases[app.name] : undefined;
  const system = t(systemLabelKey(page?.meta.appNo ?? app?.appNos[0] ?? ''), { defaultValue: location.pathname });
  // a fresh page view loads every file again: the way back from a new deployment or a broken start
  const reload = () => window.location.reload();

  let status = null;
  let loading = false;
  if (wantsSubApp && registryFailed) {
    status = <Failure system={system} failure="registry" onRetry={onRetryRegistry} />;
  } else if (wantsSubApp && apps && !app) {
    status = <Failure system={system} failure="not-installed" onRetry={reload} />;
  } else if (wantsSubApp && phase?.phase === 'failed') {
    status = <Failure system={system} failure={phase.failure} detail={phase.detail} params={phase.params} onRetry={reload} />;
  } else if (wantsSubApp && phase?.phase !== 'mounted') {
    loading = true;
    status = (
      <div className="campus-subapp-status campus-subapp-status--loading" role="status">
        <LoadingSpinner />
        <span>{t('subApps.loading', { system })}</span>
      </div>
    );
  }

  const showContainer = Boolean(app) && phase?.phase !== 'failed';
  // the loading note lies over the container's place instead of above it: when the app has mounted and the note
  // goes, the app does not move up (it did by the note's 240 px, the layout's one layout shift: issue 48, item 9)
  const area = showContainer || loading ? 'campus-subapp-area campus-subapp-area--in-use' : 'campus-subapp-area';
  return (
    <div className={area}>
      {status}
      <div id={subAppContainerId} className="campus-subapp-viewport" hidden={!showContainer} />
    </div>
  );
}
