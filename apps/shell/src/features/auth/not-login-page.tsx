import { useEffect, useLayoutEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { ExchangeLoginTicketRequest, LoginInfo } from '@campus/contracts';
import { apiPaths, loginTypes } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import { errorWithMessage } from '../../lib/paths.ts';
import { apiPost, RequestError } from '../../lib/request.ts';
import { completeLogin } from './post-login.ts';
import { decideLanding } from './landing-decision.ts';
import { LoadingSpinner } from '../../lib/loading-spinner.tsx';

/**
 * Landing route of an external (third-party) sign-in: /not-login?token=&tenantCode=&code=&msg= (spec §2). The
 * `token` is a one-time login ticket of the server's identity-provider callback (issue 49): it is traded once for
 * the session, so no session token ever stands in an address.
 */
export default function NotLoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const started = useRef(false);

  // The hand-off's ticket must not stay in the address bar or the browser history (nor reach a Referer):
  // the parameters are already read into `params`, so the entry is replaced by the bare path before paint.
  useLayoutEffect(() => {
    if (window.location.search !== '') window.history.replaceState(window.history.state, '', window.location.pathname);
  }, []);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const decision = decideLanding(params);
    const fail = (message: string) => void navigate(errorWithMessage(message), { replace: true });
    if (decision.kind === 'refuse') {
      fail(decision.message);
      return;
    }
    const signIn = async () => {
      let info: LoginInfo;
      try {
        const body: ExchangeLoginTicketRequest = { ticket: decision.ticket, tenantCode: decision.tenantCode };
        info = await apiPost<LoginInfo>(apiPaths.ssoExchangeTicket, body, { quiet: true, signsIn: true });
      } catch (error) {
        // a refused ticket (unknown, used, older than a minute) says why, in the user's language
        fail(error instanceof RequestError && error.code !== null && error.message ? error.message : t('errors.signInFailed'));
        return;
      }
      try {
        const outcome = await completeLogin(info, { loginType: loginTypes.thirdParty, fromPath: decision.fromPath });
        void navigate(outcome.kind === 'navigate' ? outcome.to : errorWithMessage(outcome.message), { replace: true });
      } catch (error) {
        // the request layer answers a 401 itself (to /error with "token invalid"); other failures land here
        if (error instanceof RequestError && error.status === 401) return;
        fail(t('errors.signInFailed'));
      }
    };
    void signIn();
  }, [navigate, params, t]);

  return (
    <main className="campus-centered" aria-busy="true">
      <LoadingSpinner />
      <p>{t('common.signingIn')}</p>
    </main>
  );
}
