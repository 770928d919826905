import type { CSSProperties, ReactNode } from 'react';
import { Alert, Button } from 'antd';
import { useTranslation } from './use-translation.ts';

/** Something a view needs did not arrive: what, optionally why, and Retry. */
export function LoadFailedAlert({
  title,
  description,
  onRetry,
  retrying = false,
  style,
}: {
  title: string;
  description?: ReactNode;
  onRetry: () => void;
  retrying?: boolean;
  style?: CSSProperties;
}) {
  const { t } = useTranslation();
  return (
    <Alert
      type="error"
      showIcon
      title={title}
      description={description}
      style={style}
      action={
        <Button size="small" onClick={onRetry} loading={retrying}>
          {t('common.retry')}
        </Button>
      }
    />
  );
}
