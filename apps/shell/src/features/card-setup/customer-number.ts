import type { TranslateFunction } from '../../lib/translator.ts';

/** The customer number rules of spec §5, in their order; null when the number is fine. */
export function customerNumberProblem(value: string, t: TranslateFunction): string | null {
  const text = value.trim();
  if (text === '') return t('cardSetup.init.customerNoRequired');
  if (!/^\d+$/.test(text)) return t('cardSetup.init.digitsOnly');
  const stripped = text.replace(/^0+/, '');
  // a number still too long without its leading zeros is not proposed: it would be refused in turn
  if (stripped.length > 8) return t('cardSetup.init.tooLong');
  if (text.startsWith('0')) return t('cardSetup.init.leadingZero', { number: stripped || '1' });
  return null;
}
