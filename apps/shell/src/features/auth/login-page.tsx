import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type {
  CaptchaImage,
  IdentityProviderButton,
  LdapLoginRequest,
  LoginFailureData,
  TenantEntry,
  TenantSettings,
  WebLoginReply,
  WebLoginRequest,
} from '@campus/contracts';
import { apiPaths, codes, digestModeFor, isGateSystem, loginTypes, toLanguage } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import { apiGet, apiPost, RequestError } from '../../lib/request.ts';
import * as storage from '../../lib/storage.ts';
import { base64Utf8, passwordDigest, randomId } from '../../lib/crypto.ts';
import { LanguagePicker } from '../../lib/language-picker.tsx';
import { PageLink, usePageNavigation } from '../../lib/page-navigation.tsx';
import { fetchTenantSettings } from '../../lib/session.ts';
import { forgetSignOutNotice, peekSignOutNotice } from '../../lib/sign-out-notice.ts';
import { warmUpSignedInCode } from '../../lib/warm-up.ts';
import { leavePage } from '../../lib/leave-page.ts';
import { completeLogin, loginTarget } from './post-login.ts';
import { createTenantLookup } from './tenant-lookup.ts';
import { validateLogin, type LoginErrors, type LoginValues } from './login-validation.ts';
import { ssoStartUrl } from './sso-start.ts';
import './login-page.css';

// antd's Modal and Radio load only when an account matches several tenants
/** A loudspeaker, drawn here: the login page loads no icon library. */
function SpeakerIcon() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path fill="currentColor" d="M4 9h4l5-4v14l-5-4H4z" />
      <path fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" d="M16 9.5a3.5 3.5 0 0 1 0 5M18.5 7a7 7 0 0 1 0 10" />
    </svg>
  );
}

const TenantModal = lazy(() => import('./tenant-modal.tsx').then((module) => ({ default: module.TenantModal })));

interface TenantChoice {
  tenants: TenantEntry[];
  resolve: (code: string | null) => void;
}

/** Where the focus goes after a refused sign-in: the field to correct, or the button when no field is at fault. */
type RefusedField = 'password' | 'captcha' | 'submit';

/**
 * /login (spec §2, §5). A signed-in user who opens it goes on to the page he asked for, the remembered one,
 * or home (a stale token is refused there and brings him back here, signed out).
 */
export default function LoginPage({ embedded = false }: { embedded?: boolean }) {
  const { navigate, search } = usePageNavigation();
  const signedIn = !embedded && storage.isSignedIn();
  useEffect(() => {
    if (signedIn) navigate(loginTarget({ fromPath: search.get('fromPath') }), { replace: true });
  }, [signedIn, navigate, search]);
  return signedIn ? null : <LoginForm embedded={embedded} />;
}

/**
 * The sign-in form. Plain form elements styled like the rest of the product: this page is the first load of
 * most visits, so it carries no component library (the tenant chooser loads antd on demand).
 */
function LoginForm({ embedded }: { embedded: boolean }) {
  const { t, i18n } = useTranslation();
  const language = toLanguage(i18n.language);
  const { navigate, search: params } = usePageNavigation();
  const ids = useId();

  const [settings, setSettings] = useState<TenantSettings | null>(() => storage.tenantSettings.get());
  const [values, setValues] = useState<LoginValues>({ username: '', password: '', captcha: '', ldap: false });
  const [errors, setErrors] = useState<LoginErrors>({});
  const [captchaRequired, setCaptchaRequired] = useState(false);
  const [captcha, setCaptcha] = useState<{ verifyKey: string; image: string; audio?: string } | null>(null);
  const [captchaFailed, setCaptchaFailed] = useState(false);
  // the code said aloud (WCAG 1.1.1), asked for by "Hear the code"
  const [hearing, setHearing] = useState<'idle' | 'loading' | 'failed'>('idle');
  const captchaAudioRef = useRef<HTMLAudioElement>(null);
  const [submitting, setSubmitting] = useState(false);
  // why the last attempt was refused, on the page until the user edits the form (a toast passes, and a screen
  // reader user would not know where the focus went); `field` takes the focus once the form is enabled again
  const [refusal, setRefusal] = useState<{ message: string; field: RefusedField } | null>(null);
  // why the last session ended (say, the operator's own card was reported lost), said once
  const [signOutNotice] = useState(() => (embedded ? null : peekSignOutNotice()));
  useEffect(() => {
    if (signOutNotice) forgetSignOutNotice();
  }, [signOutNotice]);
  const [tenantChoice, setTenantChoice] = useState<TenantChoice | null>(null);
  // the identity provider whose sign-in the browser is leaving for (issue 49)
  const [leavingFor, setLeavingFor] = useState<IdentityProviderButton | null>(null);
  useEffect(() => {
    // back from the provider's page, the browser may show this page as it was left (back-forward cache): ready again
    const shown = (event: PageTransitionEvent) => {
      if (event.persisted) setLeavingFor(null);
    };
    window.addEventListener('pageshow', shown);
    return () => window.removeEventListener('pageshow', shown);
  }, []);
  const captchaTicket = useRef(0);
  const usernameRef = useRef<HTMLInputElement>(null);
  const [tenantLookup] = useState(() => createTenantLookup());
  const passwordRef = useRef<HTMLInputElement>(null);
  const captchaRef = useRef<HTMLInputElement>(null);

  // the tenant's login logo (spec §7 getlogo), else the one its settings name
  const [loginLogo, setLoginLogo] = useState<string>(() => storage.tenantSettings.get()?.loginLogo ?? '');
  useEffect(() => {
    let active = true;
    apiGet<{ url: string }>(apiPaths.loginLogo)
      .then((logo) => {
        if (active && logo?.url) setLoginLogo(logo.url);
      })
      .catch(() => {
        // the settings' logo, or none
      });
    return () => {
      active = false;
    };
  }, []);
  useEffect(() => {
    if (settings?.loginLogo) setLoginLogo((shown) => shown || settings.loginLogo);
  }, [settings?.loginLogo]);

  const showCaptcha = Boolean(settings?.imgVerifyCode) || captchaRequired;
  // the card screen's embedded form signs in with a password only
  const providers = embedded ? [] : (settings?.identityProviders ?? []);
  const showLdap = Boolean(settings?.openLdap);

  // in the language shown, again after a switch: the system name is localised
  useEffect(() => {
    let active = true;
    void fetchTenantSettings(language).then((loaded) => {
      // without an answer the form still works with the defaults (no image code unless the server asks, no LDAP)
      if (active && loaded) setSettings(loaded);
    });
    return () => {
      active = false;
    };
  }, [language]);

  /** A new code; `spoken`: said aloud as well (the image shows the same new code). */
  const refreshCaptcha = useCallback(async (spoken = false) => {
    const ticket = ++captchaTicket.current;
    const verifyKey = randomId();
    setHearing(spoken ? 'loading' : 'idle');
    try {
      const image = await apiGet<CaptchaImage>(apiPaths.captchaImage, spoken ? { verifyKey, audio: 'true' } : { verifyKey });
      if (ticket !== captchaTicket.current) return;
      setCaptcha({ verifyKey: image.verifyKey || verifyKey, image: image.image, audio: image.audio });
      setCaptchaFailed(false);
      setHearing('idle');
    } catch {
      if (ticket !== captchaTicket.current) return;
      if (spoken) {
        // the code shown stays; the failure is said beside the button
        setHearing('failed');
        return;
      }
      setCaptcha(null);
      setCaptchaFailed(true);
    }
  }, []);

  // a code asked for aloud plays at once (the click that asked for it lets the browser play it)
  useEffect(() => {
    if (captcha?.audio) void captchaAudioRef.current?.play().catch(() => undefined);
  }, [captcha?.audio]);

  useEffect(() => {
    if (showCaptcha) void refreshCaptcha();
  }, [showCaptcha, refreshCaptcha]);

  const update = (field: keyof LoginValues, value: string | boolean) => {
    setValues((previous) => ({ ...previous, [field]: value }));
    if (errors[field as keyof LoginErrors]) setErrors((previous) => ({ ...previous, [field]: undefined }));
    setRefusal(null);
  };

  const submitRef = useRef<HTMLButtonElement>(null);
  const refusedField = refusal?.field;
  useEffect(() => {
    if (submitting || !refusedField) return;
    const target = { password: passwordRef, captcha: captchaRef, submit: submitRef }[refusedField].current;
    target?.focus();
    if (target instanceof HTMLInputElement) target.select();
  }, [submitting, refusedField, refusal, showCaptcha]);

  const chooseTenant = (tenants: TenantEntry[]) =>
    new Promise<string | null>((resolve) => {
      setTenantChoice({ tenants, resolve });
    });

  const finishChoice = (code: string | null) => {
    tenantChoice?.resolve(code);
    setTenantChoice(null);
  };

  const signIn = async () => {
    const account = values.username.trim();
    const ldap = showLdap && values.ldap;
    // the digest is computed while the tenants are looked up
    const digest = ldap ? null : passwordDigest(values.password, digestModeFor(settings?.mjSystem ?? 0));
    const tenants = await tenantLookup.lookUp(account);
    let tenantCode = '';
    if (Array.isArray(tenants) && tenants.length > 1) {
      const chosen = await chooseTenant(tenants);
      if (chosen === null) return;
      tenantCode = chosen;
    } else if (Array.isArray(tenants) && tenants.length === 1) {
      tenantCode = tenants[0]!.code;
    }

    const verifyModel = showCaptcha && captcha ? { verifyKey: captcha.verifyKey, imageVerifyCode: values.captcha.trim() } : undefined;
    let reply: WebLoginReply;
    if (ldap || digest === null) {
      const body: LdapLoginRequest = { account, password: base64Utf8(values.password), tenantCode, verifyModel };
      reply = await apiPost<WebLoginReply>(apiPaths.ldapLogin, body, { quiet: true });
    } else {
      const body: WebLoginRequest = { user: { account, password: await digest, tenantCode }, verifyModel };
      reply = await apiPost<WebLoginReply>(apiPaths.webLogin, body, { quiet: true });
    }

    const outcome = await completeLogin(reply.loginInfo, {
      loginType: ldap ? loginTypes.ldap : loginTypes.password,
      fromPath: params.get('fromPath'),
      isOut: params.get('isOut') === 'true',
      url: params.get('url'),
    });
    if (outcome.kind === 'navigate') {
      navigate(outcome.to, { replace: true });
      return;
    }
    setRefusal({ message: outcome.message, field: 'submit' });
  };

  /** "Sign in with …": the browser goes to the server's Start, which sends it on to the provider's login. */
  const signInWith = (provider: IdentityProviderButton) => {
    if (leavingFor || submitting) return;
    setLeavingFor(provider);
    leavePage(ssoStartUrl({ providerId: provider.id, tenantCode: settings?.code ?? '', fromPath: params.get('fromPath'), lang: language }));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting || leavingFor) return;
    const found = validateLogin(values, showCaptcha, t);
    setErrors(found);
    if (found.username) return usernameRef.current?.focus();
    if (found.password) return passwordRef.current?.focus();
    if (found.captcha) return captchaRef.current?.focus();

    setSubmitting(true);
    try {
      await signIn();
    } catch (error) {
      // the reason stays on the page, beside the field to correct (the sign-in calls pop no message up besides)
      const captchaCode = error instanceof RequestError && (error.code === codes.captchaRequired || error.code === codes.captchaWrong);
      if (error instanceof RequestError) {
        const data = error.data as LoginFailureData | null | undefined;
        if (error.code === codes.captchaRequired || data?.captchaRequired) setCaptchaRequired(true);
      }
      const serverSaid = error instanceof RequestError && error.code !== null && error.message !== '';
      setRefusal({ message: serverSaid ? error.message : t('login.failed'), field: captchaCode ? 'captcha' : 'password' });
      if (showCaptcha) {
        // a used image code is spent: a new one, and its field empty
        setValues((previous) => ({ ...previous, captcha: '' }));
        void refreshCaptcha();
      }
    } finally {
      setSubmitting(false);
    }
  };

  const refusalId = `${ids}-refusal`;
  const field = (name: keyof LoginErrors) => ({
    id: `${ids}-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': [errors[name] ? `${ids}-${name}-error` : '', refusal?.field === name ? refusalId : ''].filter(Boolean).join(' ') || undefined,
  });
  const errorText = (name: keyof LoginErrors) =>
    errors[name] ? (
      <p id={`${ids}-${name}-error`} className="campus-login__error" role="alert">
        {errors[name]}
      </p>
    ) : null;

  const card = (
      <section className={embedded ? 'campus-login__card campus-login__card--embedded' : 'campus-login__card'} aria-labelledby={`${ids}-title`}>
        {loginLogo ? <img className="campus-login__logo" src={loginLogo} alt="" /> : null}
        {settings?.systemName ? <p className="campus-login__product">{settings.systemName}</p> : null}
        <h1 id={`${ids}-title`} className="campus-login__title">
          {t('login.title')}
        </h1>
        {signOutNotice ? (
          <p className="campus-login__notice" role="alert">
            {t(signOutNotice)}
          </p>
        ) : null}
        <form noValidate onSubmit={(event) => void onSubmit(event)} onInput={warmUpSignedInCode} onPointerDown={warmUpSignedInCode} aria-busy={submitting}>
          <div className="campus-login__field">
            <label htmlFor={`${ids}-username`}>{t('login.username')}</label>
            <input
              {...field('username')}
              ref={usernameRef}
              className="campus-input"
              name="username"
              autoComplete="username"
              autoFocus
              maxLength={64}
              value={values.username}
              onChange={(event) => update('username', event.target.value)}
              onBlur={(event) => tenantLookup.prefetch(event.target.value)}
              disabled={submitting}
            />
            {errorText('username')}
          </div>
          <div className="campus-login__field">
            <label htmlFor={`${ids}-password`}>{t('login.password')}</label>
            <input
              {...field('password')}
              ref={passwordRef}
              className="campus-input"
              name="password"
              type="password"
              autoComplete="current-password"
              maxLength={128}
              value={values.password}
              onChange={(event) => update('password', event.target.value)}
              disabled={submitting}
            />
            {errorText('password')}
          </div>
          {showCaptcha ? (
            <div className="campus-login__field">
              <label htmlFor={`${ids}-captcha`}>{t('login.captcha')}</label>
              <div className="campus-login__captcha">
                <input
                  {...field('captcha')}
                  ref={captchaRef}
                  className="campus-input"
                  name="captcha"
                  autoComplete="off"
                  maxLength={8}
                  value={values.captcha}
                  onChange={(event) => update('captcha', event.target.value)}
                  disabled={submitting}
                />
                {/* its name is what it shows (WCAG 2.5.3): the image's "refresh" text, or the loading / unavailable text */}
                <button type="button" className="campus-login__captcha-image" title={t('login.refreshCaptcha')} onClick={() => void refreshCaptcha()}>
                  {captcha ? <img src={captcha.image} alt={t('login.refreshCaptcha')} /> : <span>{captchaFailed ? t('login.captchaUnavailable') : t('common.loading')}</span>}
                </button>
                <button
                  type="button"
                  className="campus-login__captcha-hear"
                  aria-label={t('login.hearCaptcha')}
                  title={t('login.hearCaptcha')}
                  aria-busy={hearing === 'loading'}
                  onClick={() => {
                    if (hearing !== 'loading') void refreshCaptcha(true);
                  }}
                >
                  <SpeakerIcon />
                </button>
              </div>
              {captcha?.audio ? <audio ref={captchaAudioRef} className="campus-login__captcha-audio" controls src={captcha.audio} aria-label={t('login.captchaAudio')} /> : null}
              {hearing === 'failed' ? (
                <p className="campus-login__error" role="alert">
                  {t('login.captchaAudioFailed')}
                </p>
              ) : null}
              {errorText('captcha')}
            </div>
          ) : null}
          {showLdap ? (
            <div className="campus-login__field campus-login__check">
              <input
                id={`${ids}-ldap`}
                type="checkbox"
                name="ldap"
                checked={values.ldap}
                onChange={(event) => update('ldap', event.target.checked)}
                disabled={submitting}
              />
              <label htmlFor={`${ids}-ldap`}>{t('login.ldap')}</label>
            </div>
          ) : null}
          {refusal ? (
            <p id={refusalId} className="campus-login__error campus-login__refusal">
              {refusal.message}
            </p>
          ) : null}
          <button
            ref={submitRef}
            type="submit"
            className="campus-button campus-button--primary campus-login__submit"
            disabled={submitting}
            aria-describedby={refusal?.field === 'submit' ? refusalId : undefined}
          >
            {submitting ? <span className="campus-spinner" aria-hidden="true" /> : null}
            {t('login.submit')}
          </button>
        </form>
        {providers.length > 0 ? (
          <div className="campus-login__providers" role="group" aria-labelledby={`${ids}-providers`}>
            <p id={`${ids}-providers`} className="campus-login__providers-title">
              {t('login.otherWays')}
            </p>
            {providers.map((provider) => {
              const leaving = leavingFor?.id === provider.id;
              return (
                <button
                  key={provider.id}
                  type="button"
                  className="campus-button campus-login__provider"
                  // still focusable while the browser leaves (a disabled button would drop the focus to the page)
                  aria-disabled={leavingFor !== null || submitting ? true : undefined}
                  aria-busy={leaving ? true : undefined}
                  data-provider-kind={provider.kind}
                  onClick={() => signInWith(provider)}
                >
                  {leaving ? <span className="campus-spinner" aria-hidden="true" /> : null}
                  {t('login.signInWith', { name: provider.name })}
                </button>
              );
            })}
            <p className="campus-visually-hidden" role="status">
              {leavingFor ? t('login.leavingFor', { name: leavingFor.name }) : ''}
            </p>
          </div>
        ) : null}
        {!embedded && isGateSystem(settings?.mjSystem ?? 0) ? (
          <p className="campus-login__other">
            <PageLink to="/select-func">{t('login.cardWay')}</PageLink>
          </p>
        ) : null}
      </section>
  );
  const chooser = tenantChoice ? (
    <Suspense fallback={null}>
      <TenantModal tenants={tenantChoice.tenants} onConfirm={(code) => finishChoice(code)} onCancel={() => finishChoice(null)} />
    </Suspense>
  ) : null;
  if (embedded) {
    return (
      <>
        {card}
        {chooser}
      </>
    );
  }
  return (
    <main className="campus-login" style={settings?.loginBg ? { backgroundImage: `url("${encodeURI(settings.loginBg)}")` } : undefined}>
      <div className="campus-login__language">
        <LanguagePicker />
      </div>
      {card}
      {chooser}
    </main>
  );
}
