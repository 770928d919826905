import { lazy, Suspense, useEffect, useRef } from 'react';
import { useTranslation } from '../../lib/use-translation.ts';
import { useUserDetail } from '../../lib/user-detail.ts';
import * as storage from '../../lib/storage.ts';
import { registerPasswordChangeRequired } from '../../lib/request.ts';
import { closeChangePassword, openChangePassword, useChangePasswordDialog } from './change-password-state.ts';
import { useOpenedOnce } from '../../lib/use-opened-once.ts';
import { decideForcedChange, noticeText, type ForcedChangeDecision } from './forced-change.ts';

// antd's Form and Input and their styles (over 100 KB of CSS) come with the dialog's first opening, not with the
// layout's first load; a forced change opens it right after sign-in, one small request later
const ChangePasswordModal = lazy(() => import('./change-password-modal.tsx').then(({ ChangePasswordModal: modal }) => ({ default: modal })));

/** The sign-in (access token) whose forced-change check already ran in this page load. */
let checkedSignIn: string | null = null;

/** For tests: run the check again as on a fresh page load. */
export function resetForcedChangeCheck(): void {
  checkedSignIn = null;
}

/**
 * The account dialogs of the signed-in layout: Change Password bound to its store (change-password-state), and
 * the forced-change check of spec §4 (reading A), once per sign-in and page load. The user info comes
 * from the query the layout uses (useUserDetail), so it costs no second request.
 */
export default function AccountDialogs() {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const changePassword = useChangePasswordDialog((state) => state.open);
  const user = useUserDetail();
  /** What the check decided, while its dialog is open: a language switch relabels the notice. */
  const decided = useRef<ForcedChangeDecision | null>(null);

  // the server refused a call until the password is changed: the forced dialog says what to do (with the server's
  // reason until the user info names the expiry), whatever the shell decided so far
  useEffect(() => {
    registerPasswordChangeRequired((reason) => {
      if (!useChangePasswordDialog.getState().open?.forced) openChangePassword({ forced: true, notice: reason || null });
    });
    return () => registerPasswordChangeRequired(() => {});
  }, []);

  useEffect(() => {
    if (!user.data) return;
    const signIn = storage.accessToken.get() ?? '';
    if (checkedSignIn === signIn) return;
    checkedSignIn = signIn;
    const decision = decideForcedChange({
      oprtPwdEditReason: user.data.oprtPwdEditReason,
      lockingTime: user.data.lockingTime,
      thirdParty: storage.thirdPartyLoginFlag.get(),
      licenceNormal: !storage.licenceAbnormal.get(),
    });
    if (!decision) return;
    decided.current = decision;
    openChangePassword({ forced: decision.forced, notice: noticeText(decision.notice, t, language) });
  }, [user.data, t, language]);

  useEffect(() => {
    const decision = decided.current;
    const open = useChangePasswordDialog.getState().open;
    if (!decision || !open || open.forced !== decision.forced) return;
    const notice = noticeText(decision.notice, t, language);
    if (open.notice !== notice) openChangePassword({ forced: decision.forced, notice });
  }, [t, language]);

  // the dialog renders from the first time it opens, not with every layout
  const opened = useOpenedOnce(changePassword !== null);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <ChangePasswordModal
        open={changePassword !== null}
        forced={changePassword?.forced ?? false}
        notice={changePassword?.notice ?? null}
        onClose={() => {
          decided.current = null;
          closeChangePassword();
        }}
      />
    </Suspense>
  );
}
