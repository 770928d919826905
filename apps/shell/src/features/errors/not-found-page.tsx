import { Button, Result } from 'antd';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from '../../lib/use-translation.ts';
import { NotFoundImage } from '../../lib/not-found-image.tsx';

export default function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <main className="campus-centered">
      <Result
        icon={<NotFoundImage />}
        title={<h1 className="campus-result-title">{t('notFound.title')}</h1>}
        subTitle={t('notFound.text')}
        extra={
          <Button type="primary" onClick={() => void navigate('/home')}>
            {t('notFound.backHome')}
          </Button>
        }
      />
    </main>
  );
}
