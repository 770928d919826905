import { isWithinValidity, licenceCalendarUtcDiff, licenceLimits, licenceStates } from '@campus/contracts';
import { formatCalendarDate, formatTime, wallClock } from '@campus/subapp-sdk/time';

/**
 * Display rules of a licence (spec §3 "Licence", §9), pure. Begin, end and lose-activate dates are days of the
 * licence's calendar (licenceCalendarUtcDiff, UTC+8: the vendor issues them as 00:00 of the first day to the last
 * moment of the last day there), so every viewer reads the dates the licence was issued for, never a day off; the
 * activation time is an instant, shown on the viewer's clock. 'Follow system permission' for a missing begin or
 * end, end year 2099 permanent, the term as years plus days, the lose-activate time minus 30 days, unlimited
 * employee and device counts.
 */

export type Translate = (key: string, values?: Record<string, unknown>) => string;

const dayMs = 86_400_000;
/** The lose-activate time is shown this many days early (spec §3). */
export const loseActivateShownEarlyDays = 30;

function isTime(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

/** A day of the licence calendar, as the language writes it in digits. */
export function formatLicenceDate(epochMs: number, language: string): string {
  return formatCalendarDate(epochMs, licenceCalendarUtcDiff, language);
}

/** True when the end time means "permanent": its year is 2099, on the licence calendar or in UTC. */
export function isPermanent(endTime: number | null | undefined): boolean {
  if (!isTime(endTime)) return false;
  const calendarYear = wallClock(endTime, licenceCalendarUtcDiff).getUTCFullYear();
  return new Date(endTime).getUTCFullYear() === licenceLimits.permanentYear || calendarYear === licenceLimits.permanentYear;
}

export interface DisplayContext {
  t: Translate;
  language: string;
  /** The viewer's clock, minutes east of UTC (lib/time-format.ts viewerUtcDiff): for the activation time. */
  utcDiff: number;
}

/** A begin time: 'follow system permission' when missing. */
export function beginText(beginTime: number | null | undefined, context: DisplayContext): string {
  if (!isTime(beginTime)) return context.t('licence.followSystem');
  return formatLicenceDate(beginTime, context.language);
}

/** An end time: 'follow system permission' when missing, 'permanent' in 2099. */
export function endText(endTime: number | null | undefined, context: DisplayContext): string {
  if (!isTime(endTime)) return context.t('licence.followSystem');
  if (isPermanent(endTime)) return context.t('licence.permanent');
  return formatLicenceDate(endTime, context.language);
}

/** A time with its clock (activation) on the viewer's clock, '-' when missing; the column's title names the zone. */
export function timeText(time: number | null | undefined, context: DisplayContext): string {
  return isTime(time) ? formatTime(time, { utcDiff: context.utcDiff, language: context.language, style: 'dateTime' }) : '-';
}

/** The lose-activate time, shown 30 days before the installation stops working; '-' when missing. */
export function loseActivateText(loseActivateTime: number | null | undefined, context: DisplayContext): string {
  if (!isTime(loseActivateTime)) return '-';
  return formatLicenceDate(loseActivateTime - loseActivateShownEarlyDays * dayMs, context.language);
}

/** The day of the licence calendar an instant falls on, as UTC midnight of that date (for day arithmetic). */
function calendarDay(epochMs: number): number {
  const day = wallClock(epochMs, licenceCalendarUtcDiff);
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
}

/**
 * The term a licence was issued for, on the calendar: whole years from the first day, then the days left, up to
 * the day after the last one (a licence ends at the last moment of its last day). A year is a calendar year, so
 * 2026-01-01 to 2027-12-31 is 2 years, leap day or not. Null when either end follows the system permission.
 */
export function calendarTerm(beginTime: number | null | undefined, endTime: number | null | undefined): { years: number; days: number } | null {
  if (!isTime(beginTime) || !isTime(endTime) || endTime < beginTime) return null;
  const first = new Date(calendarDay(beginTime));
  const after = calendarDay(endTime + 1);
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
  if (isPermanent(endTime)) return context.t('licence.permanent');
  const term = calendarTerm(beginTime, endTime);
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
