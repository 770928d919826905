import { Button } from 'antd';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from '../use-translation.ts';
import * as storage from '../storage.ts';

/**
 * Ends the card-management visit: the master-card token is forgotten; a signed-in administrator goes home, anyone
 * else chooses the way in.
 */
export function FinishButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Button
      type="primary"
      onClick={() => {
        storage.masterCardToken.set(null);
        void navigate(storage.isSignedIn() ? '/home' : '/select-func', { replace: true });
      }}
    >
      {t('cardSetup.management.done')}
    </Button>
  );
}
