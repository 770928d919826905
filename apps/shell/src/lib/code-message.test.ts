import { describe, expect, it } from 'vitest';
import { codeMessage, codes, readerCodes } from '@campus/contracts';
import { messageInLanguage } from './code-message.ts';

describe('a server message said again in another language', () => {
  it('keeps the values the server filled in', () => {
    const sent = codeMessage(codes.customerNoMismatch, 'en-US', { customerNo: '10002' });
    expect(messageInLanguage(codes.customerNoMismatch, sent, 'en-US', 'zh-CN')).toBe('客户编号 10002 与读卡器上的母卡不符');
    expect(messageInLanguage(codes.customerNoMismatch, sent, 'en-US', 'zh-MO')).toBe('客戶編號 10002 與讀卡器上的母卡不符');
    expect(messageInLanguage(codes.customerPasswordWrong, '客户密码与读卡器上的卡片不符', 'zh-CN', 'en-US')).toBe('The customer password does not match the card on the reader');
    expect(messageInLanguage(readerCodes.customerPasswordWrong, 'The customer password is wrong', 'en-US', 'zh-MO')).toBe('客戶密碼錯誤');
  });

  it('answers null for a message that is not the catalogue text of its code, or an unknown code', () => {
    expect(messageInLanguage(codes.customerPasswordWrong, 'Something else went wrong', 'en-US', 'zh-CN')).toBeNull();
    expect(messageInLanguage(codes.customerNoMismatch, codeMessage(codes.customerNoMismatch, 'zh-CN', { customerNo: '1' }), 'en-US', 'zh-CN')).toBeNull();
    expect(messageInLanguage(123456, 'Wrong', 'en-US', 'zh-CN')).toBeNull();
  });
});
