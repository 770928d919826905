import { useQy } from '../lib/qy-context.ts';

/** What a page shows when its data did not arrive: the page's own message and a Retry button. */
export function LoadFailed({ message, onRetry, className = '' }: { message: string; onRetry: () => void; className?: string }) {
  const { t } = useQy();
  return (
    <div className={`qy-alert qy-alert-error ${className}`.trim()} role="alert">
      <span>{message}</span>
      <button type="button" className="qy-btn qy-btn-small" onClick={onRetry}>
        {t('common.retry')}
      </button>
    </div>
  );
}
