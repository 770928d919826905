import { describe, expect, it } from 'vitest';
import { i18n } from '../../lib/i18n.ts';
import { customerNumberProblem } from './customer-number.ts';

describe('the customer number rules of spec §5', () => {
  it('answers each rule in order, in the interface language', async () => {
    await i18n.changeLanguage('en-US');
    const t = i18n.t.bind(i18n);
    expect(customerNumberProblem('', t)).toBe('Please enter the customer number');
    expect(customerNumberProblem('  ', t)).toBe('Please enter the customer number');
    expect(customerNumberProblem('12a4', t)).toBe('Only digits are allowed');
    expect(customerNumberProblem('-12', t)).toBe('Only digits are allowed');
    expect(customerNumberProblem('00123', t)).toBe('Cannot start with 0, please change it to 123');
    expect(customerNumberProblem('123456789', t)).toBe('At most 8 digits');
    expect(customerNumberProblem('012345678', t)).toBe('Cannot start with 0, please change it to 12345678');
    // without its zeros still 9 digits: too long, not a proposal that would be refused in turn
    expect(customerNumberProblem('000123456789', t)).toBe('At most 8 digits');
    expect(customerNumberProblem('12345678', t)).toBeNull();
    expect(customerNumberProblem('10001', t)).toBeNull();
    await i18n.changeLanguage('zh-CN');
    expect(customerNumberProblem('0123', i18n.t.bind(i18n))).toBe('不能以0开头，请改为123');
    expect(customerNumberProblem('x', i18n.t.bind(i18n))).toBe('只能输入数字');
    expect(customerNumberProblem('0000123456789', i18n.t.bind(i18n))).toBe('长度不能超过8');
    await i18n.changeLanguage('en-US');
  });
});
