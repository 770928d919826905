import { isWithinValidity, licenceLimits, licenceStates } from '@campus/contracts';

/**
 * Display rules of a licence (spec §3 "Licence", §9), pure: dates on the user's calendar, 'follow system
 * permission' for a missing begin or end, end year 2099 permanent, the term as years plus days, the
 * lose-activate time minus 30 days, unlimited employee and device counts.
 */

export type Translate = (key: string, values?: Record<string, unknown>) => string;

const dayMs = 86_400_000;
/** The lose-activate time is shown this many days early (spec §3). */
export const loseActivateShownEarlyDays = 30;

function isTime(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

/** A date on the user's calendar (utcDiff minutes east of UTC when known, else the browser's), as the language writes it numerically. */
export function formatLicenceDate(epochMs: number, language: string, utcDiff: number | null = null, withTime = false): string {
  const shifted = utcDiff !== null && Number.isFinite(utcDiff);
  const date = new Date(shifted ? epochMs + utcDiff * 60_000 : epochMs);
  const options: Intl.DateTimeFormatOptions = {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    ...(withTime ? { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' as const } : {}),
    ...(shifted ? { timeZone: 'UTC' } : {}),
  };
  try {
    return new Intl.DateTimeFormat(language, options).format(date);
  } catch {
    return new Intl.DateTimeFormat(undefined, options).format(date);
  }
}

/** True when the end time means "permanent": its year is 2099, in UTC or on the user's calendar. */
export function isPermanent(endTime: number | null | undefined, utcDiff: number | null = null): boolean {
  if (!isTime(endTime)) return false;
  const calendar = new Date(endTime + (utcDiff !== null && Number.isFinite(utcDiff) ? utcDiff * 60_000 : 0));
  return new Date(endTime).getUTCFullYear() === licenceLimits.permanentYear || calendar.getUTCFullYear() === licenceLimits.permanentYear;
}

export interface DisplayContext {
  t: Translate;
  language: string;
  utcDiff: number | null;
}

/** A begin time: 'follow system permission' when missing. */
export function beginText(beginTime: number | null | undefined, context: DisplayContext): string {
  if (!isTime(beginTime)) return context.t('licence.followSystem');
  return formatLicenceDate(beginTime, context.language, context.utcDiff);
}

/** An end time: 'follow system permission' when missing, 'permanent' in 2099. */
export function endText(endTime: number | null | undefined, context: DisplayContext): string {
  if (!isTime(endTime)) return context.t('licence.followSystem');
  if (isPermanent(endTime, context.utcDiff)) return context.t('licence.permanent');
  return formatLicenceDate(endTime, context.language, context.utcDiff);
}

/** A time with its clock (activation), '-' when missing. */
export function timeText(time: number | null | undefined, context: DisplayContext): string {
  return isTime(time) ? formatLicenceDate(time, context.language, context.utcDiff, true) : '-';
}

/** The lose-activate time, shown 30 days before the installation stops working; '-' when missing. */
export function loseActivateText(loseActivateTime: number | null | undefined, context: DisplayContext): string {
  if (!isTime(loseActivateTime)) return '-';
  return formatLicenceDate(loseActivateTime - loseActivateShownEarlyDays * dayMs, context.language, context.utcDiff);
}

/** The calendar day (UTC fields) of an instant on the user's calendar: utcDiff minutes east of UTC, else the browser's. */
function calendarDay(epochMs: number, utcDiff: number | null): number {
  if (utcDiff !== null && Number.isFinite(utcDiff)) {
    const shifted = new Date(epochMs + utcDiff * 60_000);
    return Date.UTC(shifted.getUTCFullYear(), shifted.getUTCMonth(), shifted.getUTCDate());
  }
  const local = new Date(epochMs);
  return Date.UTC(local.getFullYear(), local.getMonth(), local.getDate());
}

/**
 * The term a licence was issued for, on the calendar: whole years from the first day, then the days left, up to
 * the day after the last one (a licence ends at the last moment of its last day). A year is a calendar year, so
 * 2026-01-01 to 2027-12-31 is 2 years, leap day or not. Null when either end follows the system permission.
 */
export function calendarTerm(beginTime: number | null | undefined, endTime: number | null | undefined, utcDiff: number | null = null): { years: number; days: number } | null {
  if (!isTime(beginTime) || !isTime(endTime) || endTime < beginTime) return null;
  const first = new Date(calendarDay(beginTime, utcDiff));
  const after = calendarDay(endTime + 1, utcDiff);
  const yearsFrom = (n: number) => Date.UTC(first.getUTCFullYear() + n, first.getUTCMonth(), first.getUTCDate());
  let years = new Date(after).getUTCFullYear() - first.getUTCFullYear();
  while (years > 0 && yearsFrom(years) > after) years -= 1;
  return { years, days: Math.round((after - yearsFrom(years)) / dayMs) };
}

/**
 * The term as years plus days ("1 year 30 days"): 'follow system permission' without a term, 'permanent'
 * when the licence ends in 2099.
 */
export function termText(beginTime: number | null | undefined, endTime: number | null | undefined, context: DisplayContext): string {
  if (isPermanent(endTime, context.utcDiff)) return context.t('licence.permanent');
  const term = calendarTerm(beginTime, endTime, context.utcDiff);
  if (term === null) return context.t('licence.followSystem');
  const { years, days } = term;
  const yearsText = context.t(years === 1 ? 'licence.termYear' : 'licence.termYears', { count: years });
  const daysText = context.t(days === 1 ? 'licence.termDay' : 'licence.termDays', { count: days });
  if (years === 0) return daysText;
  if (days === 0) return yearsText;
  return context.t('licence.termBoth', { years: yearsText, days: daysText });
}

/** The employee count; 9999999 is unlimited. */
export function employeeCountText(count: number, t: Translate): string {
  return count === licenceLimits.unlimitedEmployees ? t('licence.unlimited') : String(count);
}

/** A device count; -1 is unlimited. */
export function deviceCountText(count: number, t: Translate): string {
  return count === licenceLimits.unlimitedDevices ? t('licence.unlimited') : String(count);
}

const stateCodes: number[] = Object.values(licenceStates);

/** The label of a state or effectiveness code (spec §4 code table); the code itself when unknown. */
export function stateText(code: number, t: Translate): string {
  return stateCodes.includes(code) ? t(`licence.states.${code}`) : String(code);
}

/** Formal or trial. */
export function formalText(isFormal: boolean, t: Translate): string {
  return t(isFormal ? 'licence.formal' : 'licence.trial');
}

/** Yes or no. */
export function yesNoText(value: boolean, t: Translate): string {
  return t(value ? 'licence.yes' : 'licence.no');
}

/** Whether a system administrator may activate this licence: uploaded, not activated yet, begun and not expired (as the server rules). */
export function canActivate(row: { state: number; effectiveness: number }): boolean {
  return row.state === licenceStates.notActivated && isWithinValidity(row.effectiveness);
}
