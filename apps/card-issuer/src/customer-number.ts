/** The customer number rules of spec §5 (system initialisation, the vendor's mother card), with their messages. */
export function customerNoProblem(value: string): string | null {
  if (value === '') return 'please enter the customer number';
  if (!/^\d+$/.test(value)) return 'the customer number may hold digits only';
  if (value.startsWith('0')) return `the customer number must not start with 0: use ${value.replace(/^0+/, '') || '(a number above 0)'}`;
  if (value.length > 8) return 'the customer number has at most 8 digits';
  return null;
}
