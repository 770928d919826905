import { useSyncExternalStore } from 'react';
import { Alert } from 'antd';
import { shellVersion } from '@campus/contracts';
import { useTranslation } from '../use-translation.ts';
import { olderIssuerVersion, subscribeIssuerVersion } from './issuer-version.ts';

/** The way to the Tools page in a new tab, so that the card screen keeps its place. */
function ToolsLink() {
  const { t } = useTranslation();
  return (
    <a href="/tools" target="_blank" rel="noopener noreferrer">
      {t('cardReader.openTools')}
    </a>
  );
}

/** What to do about an issuer too old for this server: update it from the Tools page. */
export function IssuerUpdateAdvice() {
  const { t } = useTranslation();
  return (
    <>
      <p>{t('cardReader.howToUpdate')}</p>
      <ToolsLink />
    </>
  );
}

/** A warning while the issuer paired with is older than this server but still works with it. */
export function OlderIssuerWarning() {
  const { t } = useTranslation();
  const issuer = useSyncExternalStore(subscribeIssuerVersion, olderIssuerVersion);
  if (issuer === null) return null;
  return <Alert type="warning" showIcon role="status" className="campus-card-dialog__version" title={t('cardReader.issuerOlder', { issuer, server: shellVersion })} description={<ToolsLink />} />;
}
