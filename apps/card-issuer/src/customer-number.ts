import type { Localised } from '@campus/contracts';

/** What breaks the customer number rules of spec §5, in the three languages. */
export const customerNoProblems = {
  missing: { 'en-US': 'please enter the customer number', 'zh-CN': '请输入客户编号', 'zh-MO': '請輸入客戶編號' },
  notDigits: { 'en-US': 'the customer number may hold digits only', 'zh-CN': '客户编号只能包含数字', 'zh-MO': '客戶編號只能包含數字' },
  leadingZero: (suggested: string): Localised => ({
    'en-US': `the customer number must not start with 0: use ${suggested}`,
    'zh-CN': `客户编号不能以 0 开头：请使用 ${suggested}`,
    'zh-MO': `客戶編號不能以 0 開頭：請使用 ${suggested}`,
  }),
  onlyZeros: {
    'en-US': 'the customer number must not start with 0: use a number above 0',
    'zh-CN': '客户编号不能以 0 开头：请使用大于 0 的数字',
    'zh-MO': '客戶編號不能以 0 開頭：請使用大於 0 的數字',
  },
  tooLong: (most: number): Localised => ({
    'en-US': `the customer number has at most ${most} digits`,
    'zh-CN': `客户编号最多 ${most} 位数字`,
    'zh-MO': `客戶編號最多 ${most} 位數字`,
  }),
};

/** The customer number rules of spec §5 (system initialisation, the vendor's mother card): what is wrong, or null. */
export function customerNoProblem(value: string): Localised | null {
  if (value === '') return customerNoProblems.missing;
  if (!/^\d+$/.test(value)) return customerNoProblems.notDigits;
  if (value.startsWith('0')) {
    const suggested = value.replace(/^0+/, '');
    return suggested === '' ? customerNoProblems.onlyZeros : customerNoProblems.leadingZero(suggested);
  }
  if (value.length > 8) return customerNoProblems.tooLong(8);
  return null;
}
