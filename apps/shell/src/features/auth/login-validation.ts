export interface LoginValues {
  username: string;
  password: string;
  captcha: string;
  ldap: boolean;
}

export type LoginErrors = Partial<Record<'username' | 'password' | 'captcha', string>>;

/** The login rules of spec §5: username, password and (when shown) the verification code are required. */
export function validateLogin(values: LoginValues, captchaShown: boolean, t: (key: string) => string): LoginErrors {
  const errors: LoginErrors = {};
  if (!values.username.trim()) errors.username = t('login.usernameRequired');
  if (!values.password) errors.password = t('login.passwordRequired');
  if (captchaShown && !values.captcha.trim()) errors.captcha = t('login.captchaRequired');
  return errors;
}
