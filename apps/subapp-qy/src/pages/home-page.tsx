import { useCallback, useId } from 'react';
import type { HomeFigures, UserInfo } from '@campus/contracts';
import { formatCount, type ShellLanguage } from '@campus/subapp-sdk';
import { apiPaths, licenceCondition } from '@campus/contracts';
import { useQy } from '../lib/qy-context.ts';
import { LoadFailed } from '../components/load-failed.tsx';
import { useRemote } from '../lib/use-remote.ts';
import { dayPeriod, formatTime } from '../lib/clock.ts';
import { licenceTone } from '../lib/licence-word.ts';

interface Loaded {
  figures: HomeFigures;
  at: number;
}

/** A name the server localises, and the language it was asked for in. */
interface LocalisedName {
  name: string;
  language: ShellLanguage;
}

/** /qy/homePage: a greeting and the tenant's live figures. */
export function HomePage() {
  const { props, language, t } = useQy();
  const { api, userInfo, globalConfig } = props;
  const titleId = useId();
  const figuresId = useId();

  const request = useCallback(async (): Promise<Loaded> => {
    const { data } = await api.get<HomeFigures>(apiPaths.qyHomeFigures);
    return { figures: data, at: Date.now() };
  }, [api]);
  const remote = useRemote(request);
  // the tenant's name is localised by the server (the request's language header is the shell's current language):
  // asked for again on every switch, as the props hold it in the language of the mount
  const tenantRequest = useCallback(async (): Promise<LocalisedName> => {
    const { data } = await api.get<Pick<UserInfo, 'tenantName'>>(apiPaths.userDetail);
    return { name: data?.tenantName ?? '', language };
  }, [api, language]);
  const tenant = useRemote(tenantRequest);
  const tenantName = tenant.data?.name || userInfo.tenantName || globalConfig.systemName;

  const loaded = remote.data;
  // the greeting follows the clock of the last answer, so a refresh later in the day updates it
  const period = dayPeriod(loaded?.at ?? Date.now(), globalConfig.utcDiff);
  const loading = remote.status === 'loading';
  const word = loaded ? licenceCondition(loaded.figures.licence) : null;

  return (
    <section className="qy-page" aria-labelledby={titleId}>
      <header className="qy-page-header">
        <div>
          <h2 id={titleId} className="qy-title">
            {t(`home.greeting.${period}`, { name: userInfo.name })}
          </h2>
          <p className="qy-subtitle">{t('home.intro', { tenant: tenantName })}</p>
        </div>
        <button type="button" className="qy-btn" onClick={remote.reload}>
          {loading && loaded ? t('common.loading') : t('common.refresh')}
        </button>
      </header>

      <section className="qy-card" aria-labelledby={figuresId} aria-busy={loading}>
        <h3 id={figuresId} className="qy-card-title">
          {t('home.figures')}
        </h3>
        {remote.status === 'error' ? (
          <LoadFailed message={t('home.loadFailed')} onRetry={remote.reload} />
        ) : !loaded ? (
          <p className="qy-muted" role="status">
            {t('common.loading')}
          </p>
        ) : (
          <>
            <dl className="qy-figures">
              <div className="qy-figure">
                <dt>{t('home.employees')}</dt>
                <dd>{formatCount(loaded.figures.employeeCount, language)}</dd>
              </div>
              <div className="qy-figure">
                <dt>{t('home.departments')}</dt>
                <dd>{formatCount(loaded.figures.departmentCount, language)}</dd>
              </div>
              <div className="qy-figure">
                <dt>{t('home.activeSessions')}</dt>
                <dd>{formatCount(loaded.figures.activeSessionCount, language)}</dd>
              </div>
              <div className="qy-figure">
                <dt>{t('home.licence')}</dt>
                <dd>{word && <span className={`qy-tag qy-tag-${licenceTone(word)}`}>{t(`licence.${word}`)}</span>}</dd>
              </div>
            </dl>
            <p className="qy-muted qy-small" role="status">
              {loading ? t('common.loading') : t('home.updated', { time: formatTime(loaded.at, globalConfig.utcDiff) })}
            </p>
          </>
        )}
      </section>
    </section>
  );
}
