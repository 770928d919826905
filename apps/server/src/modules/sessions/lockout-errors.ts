import { codes } from '@campus/contracts';
import type { LoginFailureData } from '@campus/contracts';
import { AppError } from '../../http/envelope.ts';

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** The lock end as shown in messages: local time of the server, `YYYY-MM-DD HH:mm:ss`. */
/**
 * The end of a lock-out in the message, in UTC and saying so: the server answers a known and an unknown account
 * alike, so it cannot use the account's own zone (the shell shows data.lockingTime in the viewer's zone).
 */
export function formatLockTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} UTC`;
}

/** accountLocked with the lock end (data.lockingTime and the {time} of the message). */
export function lockedError(lockingTime: number): AppError {
  const data: LoginFailureData = { lockingTime, captchaRequired: true };
  return new AppError(codes.accountLocked, { data, values: { time: formatLockTime(lockingTime) } });
}

/** signInThrottled: HTTP 429 with Retry-After, for an address that must wait before its next try. */
export function throttledError(waitMs: number): AppError {
  const seconds = String(Math.max(1, Math.ceil(waitMs / 1000)));
  return new AppError(codes.signInThrottled, { status: 429, data: { captchaRequired: true, retryAfter: Number(seconds) }, values: { seconds }, headers: { 'retry-after': seconds } });
}
