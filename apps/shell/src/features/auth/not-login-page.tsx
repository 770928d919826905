import { useEffect, useLayoutEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { isSuccessCode, loginTypes } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import { errorWithMessage } from '../../lib/paths.ts';
import { RequestError } from '../../lib/request.ts';
import { completeLogin } from './post-login.ts';
import { LoadingSpinner } from '../../lib/loading-spinner.tsx';

/** Landing route of an external (third-party) sign-in: /not-login?token=&tenantCode=&code=&msg= (spec §2). */
export default function NotLoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const started = useRef(false);

  // The hand-off's token must not stay in the address bar or the browser history (nor reach a Referer):
  // the parameters are already read into `params`, so the entry is replaced by the bare path before paint.
  useLayoutEffect(() => {
    if (window.location.search !== '') window.history.replaceState(window.history.state, '', window.location.pathname);
  }, []);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const token = params.get('token');
    const tenantCode = params.get('tenantCode');
    const code = params.get('code');
    const msg = params.get('msg') ?? '';
    const numeric = code !== null && code.trim() !== '' ? Number(code) : NaN;
    if (!token || !tenantCode || !Number.isInteger(numeric) || !isSuccessCode(numeric)) {
      void navigate(errorWithMessage(msg), { replace: true });
      return;
    }
    completeLogin({ token, tenantCode }, { loginType: loginTypes.thirdParty, fromPath: params.get('fromPath') })
      .then((outcome) => {
        void navigate(outcome.kind === 'navigate' ? outcome.to : errorWithMessage(outcome.message), { replace: true });
      })
      .catch((error: unknown) => {
        // the request layer answers a 401 itself (to /error with "token invalid"); other failures land here
        if (error instanceof RequestError && error.status === 401) return;
        void navigate(errorWithMessage(t('errors.signInFailed')), { replace: true });
      });
  }, [navigate, params, t]);

  return (
    <main className="campus-centered" aria-busy="true">
      <LoadingSpinner />
      <p>{t('common.signingIn')}</p>
    </main>
  );
}
