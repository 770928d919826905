import type { LanguageCode, Localised } from './languages.ts';

/**
 * Result codes of the envelope `{code, msg, data, recordCount?}` (DESIGN §5).
 * A call succeeded when `code % 10 === 0`; every failure below has a non-zero last digit.
 */
export const codes = {
  ok: 0,
  tokenInvalid: 31,
  tokenExpired: 32,
  accountDisabled: 246,
  badRequest: 101,
  accountOrPasswordWrong: 111,
  accountLocked: 112,
  captchaRequired: 113,
  captchaWrong: 114,
  captchaExpired: 115,
  tenantRequired: 116,
  tenantUnknown: 117,
  ldapDisabled: 121,
  ldapUnavailable: 122,
  ldapNoLocalAccount: 123,
  noPermission: 131,
  notFound: 141,
  passwordPolicy: 151,
  passwordReused: 152,
  oldPasswordWrong: 153,
  tooManyRequests: 161,
  internalError: 999,
} as const;

export type BusinessCodeName = keyof typeof codes;
export type BusinessCode = (typeof codes)[BusinessCodeName];

export function isSuccessCode(code: number): boolean {
  return code % 10 === 0;
}

/** Codes after which the shell clears its storage and returns to /login (spec §8). */
export const signOutCodes: readonly number[] = [codes.tokenInvalid, codes.tokenExpired, codes.accountDisabled];
/** Of those, the ones that show no message. */
export const silentSignOutCodes: readonly number[] = [codes.tokenInvalid, codes.tokenExpired];

/** The message the server sends with each failure code, in the caller's language. */
export const codeMessages: Record<BusinessCode, Localised> = {
  [codes.ok]: { 'en-US': 'Success', 'zh-CN': '成功', 'zh-MO': '成功' },
  [codes.tokenInvalid]: { 'en-US': 'Your sign-in is not valid, please sign in again', 'zh-CN': '登录信息无效，请重新登录', 'zh-MO': '登入資訊無效，請重新登入' },
  [codes.tokenExpired]: { 'en-US': 'Your sign-in has expired, please sign in again', 'zh-CN': '登录已过期，请重新登录', 'zh-MO': '登入已過期，請重新登入' },
  [codes.accountDisabled]: { 'en-US': 'This account is disabled, please contact the administrator', 'zh-CN': '该账号已停用，请联系管理员', 'zh-MO': '該帳號已停用，請聯絡管理員' },
  [codes.badRequest]: { 'en-US': 'The request is not valid', 'zh-CN': '请求参数不正确', 'zh-MO': '請求參數不正確' },
  [codes.accountOrPasswordWrong]: { 'en-US': 'Wrong account or password', 'zh-CN': '账号或密码错误', 'zh-MO': '帳號或密碼錯誤' },
  [codes.accountLocked]: { 'en-US': 'Too many failed sign-ins: the account is locked until {time}', 'zh-CN': '登录失败次数过多，账号已锁定至 {time}', 'zh-MO': '登入失敗次數過多，帳號已鎖定至 {time}' },
  [codes.captchaRequired]: { 'en-US': 'Please enter the verification code', 'zh-CN': '请输入验证码', 'zh-MO': '請輸入驗證碼' },
  [codes.captchaWrong]: { 'en-US': 'Wrong verification code', 'zh-CN': '验证码错误', 'zh-MO': '驗證碼錯誤' },
  [codes.captchaExpired]: { 'en-US': 'The verification code has expired or was already used, please use the new one', 'zh-CN': '验证码已过期或已使用，请使用新的验证码', 'zh-MO': '驗證碼已過期或已使用，請使用新的驗證碼' },
  [codes.tenantRequired]: { 'en-US': 'Please choose a tenant', 'zh-CN': '请选择租户', 'zh-MO': '請選擇租戶' },
  [codes.tenantUnknown]: { 'en-US': 'Unknown tenant', 'zh-CN': '租户不存在', 'zh-MO': '租戶不存在' },
  [codes.ldapDisabled]: { 'en-US': 'LDAP sign-in is not enabled', 'zh-CN': '未启用 LDAP 登录', 'zh-MO': '未啟用 LDAP 登入' },
  [codes.ldapUnavailable]: { 'en-US': 'The LDAP directory cannot be reached, please try again later', 'zh-CN': '无法连接 LDAP 目录服务，请稍后再试', 'zh-MO': '無法連接 LDAP 目錄服務，請稍後再試' },
  [codes.ldapNoLocalAccount]: { 'en-US': 'This directory account has no account in the system, please contact the administrator', 'zh-CN': '该目录账号在系统中没有对应账号，请联系管理员', 'zh-MO': '該目錄帳號在系統中沒有對應帳號，請聯絡管理員' },
  [codes.noPermission]: { 'en-US': 'No permission', 'zh-CN': '没有权限', 'zh-MO': '沒有權限' },
  [codes.notFound]: { 'en-US': 'Not found', 'zh-CN': '资源不存在', 'zh-MO': '資源不存在' },
  [codes.passwordPolicy]: { 'en-US': 'The new password does not meet the password policy', 'zh-CN': '新密码不符合密码规则', 'zh-MO': '新密碼不符合密碼規則' },
  [codes.passwordReused]: { 'en-US': 'The new password must differ from the current one', 'zh-CN': '新密码不能与当前密码相同', 'zh-MO': '新密碼不能與目前密碼相同' },
  [codes.oldPasswordWrong]: { 'en-US': 'The original password is wrong', 'zh-CN': '原密码错误', 'zh-MO': '原密碼錯誤' },
  [codes.tooManyRequests]: { 'en-US': 'Too many requests, please try again later', 'zh-CN': '请求过于频繁，请稍后再试', 'zh-MO': '請求過於頻繁，請稍後再試' },
  [codes.internalError]: { 'en-US': 'Internal server error!', 'zh-CN': '服务器内部错误！', 'zh-MO': '伺服器內部錯誤！' },
};

/** The localised message of a code, with `{name}` placeholders filled in. */
export function codeMessage(code: BusinessCode, language: LanguageCode, values: Record<string, string> = {}): string {
  const template = codeMessages[code][language];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}
