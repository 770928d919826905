import type { LanguageCode, Localised } from './languages.ts';
import { readerCodes, type ReaderCode } from './card-reader-codes.ts';

/** What each card reader code says to the operator, in every language (kept apart from the codes, as business-code-messages.ts). */
export const readerCodeMessages: Record<ReaderCode, Localised> = {
  [readerCodes.ok]: { 'en-US': 'Success', 'zh-CN': '成功', 'zh-MO': '成功' },
  [readerCodes.noCard]: { 'en-US': 'No card on the reader: place the card on the reader', 'zh-CN': '读卡器上没有卡片：请将卡片放到读卡器上', 'zh-MO': '讀卡器上沒有卡片：請將卡片放到讀卡器上' },
  [readerCodes.writeInterruptedBeforeChange]: { 'en-US': 'Writing the card was interrupted before anything changed: keep the card on the reader, writing again', 'zh-CN': '写卡在卡片改变前中断：请保持卡片在读卡器上，正在重新写卡', 'zh-MO': '寫卡在卡片改變前中斷：請保持卡片在讀卡器上，正在重新寫卡' },
  [readerCodes.writeInterruptedWhileCommitting]: { 'en-US': 'Writing the card was interrupted; the card still holds what it had: keep it on the reader, writing again', 'zh-CN': '写卡中断，卡片内容未改变：请保持卡片在读卡器上，正在重新写卡', 'zh-MO': '寫卡中斷，卡片內容未改變：請保持卡片在讀卡器上，正在重新寫卡' },
  [readerCodes.readerBusy]: { 'en-US': 'The card reader is busy with another operation: try again in a moment', 'zh-CN': '读卡器正忙于其他操作：请稍后再试', 'zh-MO': '讀卡器正忙於其他操作：請稍後再試' },
  [readerCodes.readerNotConnected]: { 'en-US': 'The card reader is not connected: plug it in', 'zh-CN': '读卡器未连接：请连接读卡器', 'zh-MO': '讀卡器未連接：請連接讀卡器' },
  [readerCodes.wrongCardKind]: { 'en-US': 'This is not the kind of card this step needs', 'zh-CN': '卡片类型不符合此步骤的要求', 'zh-MO': '卡片類型不符合此步驟的要求' },
  [readerCodes.cardAlreadyIssued]: { 'en-US': 'This card is already issued: use a blank card', 'zh-CN': '此卡已发行：请使用空白卡', 'zh-MO': '此卡已發行：請使用空白卡' },
  [readerCodes.cardNotBlank]: { 'en-US': 'This card holds other data: use a blank card', 'zh-CN': '此卡含有其他数据：请使用空白卡', 'zh-MO': '此卡含有其他資料：請使用空白卡' },
  [readerCodes.unknownCard]: { 'en-US': 'This card cannot be read as a card of this system', 'zh-CN': '无法识别此卡为本系统的卡片', 'zh-MO': '無法識別此卡為本系統的卡片' },
  [readerCodes.keyMismatch]: { 'en-US': 'This card belongs to another installation, or it was changed or copied', 'zh-CN': '此卡属于其他系统，或已被修改或复制', 'zh-MO': '此卡屬於其他系統，或已被修改或複製' },
  [readerCodes.customerPasswordWrong]: { 'en-US': 'The customer password is wrong', 'zh-CN': '客户密码错误', 'zh-MO': '客戶密碼錯誤' },
  [readerCodes.noSystemKey]: { 'en-US': 'The card issuer holds no system key data yet', 'zh-CN': '发卡器尚未载入系统密钥数据', 'zh-MO': '發卡器尚未載入系統密鑰資料' },
  [readerCodes.differentCard]: { 'en-US': 'Another card was placed on the reader than the one being written', 'zh-CN': '读卡器上的卡片不是正在写入的那张卡', 'zh-MO': '讀卡器上的卡片不是正在寫入的那張卡' },
  [readerCodes.notPaired]: { 'en-US': 'This browser is not paired with the card issuer: card reader not installed or configured', 'zh-CN': '此浏览器未与发卡器配对：读卡器未安装或未配置', 'zh-MO': '此瀏覽器未與發卡器配對：讀卡器未安裝或未設定' },
  [readerCodes.gatewayUnreachable]: { 'en-US': 'The card issuer cannot reach the server', 'zh-CN': '发卡器无法连接服务器', 'zh-MO': '發卡器無法連接伺服器' },
  [readerCodes.tooManyPairings]: {
    'en-US': 'Too many browser pages of this site are paired with the card issuer and in use: go on in a card page that is already open, or try again in 15 minutes',
    'zh-CN': '此网站已有过多浏览器页面与发卡器配对并正在使用：请在已打开的卡片页面继续操作，或 15 分钟后再试',
    'zh-MO': '此網站已有過多瀏覽器頁面與發卡器配對並正在使用：請在已開啟的卡片頁面繼續操作，或 15 分鐘後再試',
  },
};

export function readerCodeMessage(code: ReaderCode, language: LanguageCode): string {
  return readerCodeMessages[code][language];
}
