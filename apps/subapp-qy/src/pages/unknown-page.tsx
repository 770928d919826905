import { useId } from 'react';
import { useQy } from '../lib/qy-context.ts';
import { qyPaths } from '../lib/routes.ts';

/** Any other path under the app: says so, shows the path as text, and offers the home page. */
export function UnknownPage({ path }: { path: string }) {
  const { props, t } = useQy();
  const titleId = useId();
  return (
    <section className="qy-page" aria-labelledby={titleId}>
      <div className="qy-card qy-result">
        <h2 id={titleId} className="qy-title">
          {t('unknown.title')}
        </h2>
        <p>
          {t('unknown.path')}: <code className="qy-code">{path}</code>
        </p>
        <button type="button" className="qy-btn qy-btn-primary" onClick={() => props.navigate('qy', qyPaths.home)}>
          {t('unknown.home')}
        </button>
      </div>
    </section>
  );
}
