import { Result } from 'antd';
import { Link, useSearchParams } from 'react-router-dom';
import { useTranslation } from '../../lib/use-translation.ts';

/** /error?msg=<URL-encoded message>: the message is shown as text, never as HTML. */
export default function ErrorPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  // useSearchParams has already percent-decoded the value once
  const msg = params.get('msg') ?? '';
  return (
    <main className="campus-centered">
      <Result
        status="error"
        title={<h1 className="campus-result-title">{t('errors.title')}</h1>}
        subTitle={<span data-testid="error-message">{msg || t('errors.unknown')}</span>}
        extra={
          <Link to="/login" className="campus-link-button">
            {t('errors.backToLogin')}
          </Link>
        }
      />
    </main>
  );
}
