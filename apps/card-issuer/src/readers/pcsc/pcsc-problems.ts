import type { Localised } from '@campus/contracts';
import { readerCodes } from '@campus/contracts';
import { ReaderError } from '../card-reader.ts';
import { swHex } from './apdu.ts';

/** Why a PC/SC operation failed, in the three languages, appended to the reader code's own message. */
export const pcscProblems = {
  serviceDown: (platform: NodeJS.Platform = process.platform): Localised =>
    platform === 'win32'
      ? {
          // Windows starts the service when a reader is plugged in and may stop it when the last one is unplugged
          'en-US': 'the Windows Smart Card service is not running: plug the card reader in, or start the service "Smart Card" (SCardSvr) in services.msc',
          'zh-CN': 'Windows 智能卡服务未运行：请插上读卡器，或在 services.msc 中启动"Smart Card"（SCardSvr）服务',
          'zh-MO': 'Windows 智慧卡服務未執行：請插上讀卡器，或在 services.msc 中啟動「Smart Card」（SCardSvr）服務',
        }
      : {
          'en-US': 'the PC/SC service (pcscd) is not running: start it, for example with "systemctl start pcscd"',
          'zh-CN': 'PC/SC 服务（pcscd）未运行：请启动它，例如执行 "systemctl start pcscd"',
          'zh-MO': 'PC/SC 服務（pcscd）未執行：請啟動它，例如執行 "systemctl start pcscd"',
        },
  noReaders: (): Localised => ({
    'en-US': 'no PC/SC card reader is plugged in',
    'zh-CN': '没有连接任何 PC/SC 读卡器',
    'zh-MO': '沒有連接任何 PC/SC 讀卡器',
  }),
  readerMissing: (name: string): Localised => ({
    'en-US': `the card reader "${name}" (CARD_READER_NAME) is not plugged in`,
    'zh-CN': `读卡器 "${name}"（CARD_READER_NAME）未连接`,
    'zh-MO': `讀卡器 "${name}"（CARD_READER_NAME）未連接`,
  }),
  cardRemoved: (): Localised => ({
    'en-US': 'the card left the reader during the operation; the card still holds what it held before',
    'zh-CN': '操作过程中卡片离开了读卡器；卡片内容保持不变',
    'zh-MO': '操作過程中卡片離開了讀卡器；卡片內容保持不變',
  }),
  commitInterrupted: (): Localised => ({
    'en-US': 'the card left the reader while the write was being committed: place it on the reader again, the write is checked and finished then',
    'zh-CN': '写卡提交时卡片离开了读卡器：请将卡片重新放到读卡器上，届时会检查并完成写卡',
    'zh-MO': '寫卡提交時卡片離開了讀卡器：請將卡片重新放到讀卡器上，屆時會檢查並完成寫卡',
  }),
  cardMute: (): Localised => ({
    'en-US': 'the card stopped answering; take it off the reader and place it again',
    'zh-CN': '卡片停止响应：请将卡片从读卡器上取下后重新放上',
    'zh-MO': '卡片停止回應：請將卡片從讀卡器上取下後重新放上',
  }),
  noFixedNumber: (): Localised => ({
    'en-US': 'the card has no serial number (EF.GDO 2F02, tag 5A) and the reader reports no UID',
    'zh-CN': '卡片没有序列号（EF.GDO 2F02，标签 5A），读卡器也未报告 UID',
    'zh-MO': '卡片沒有序號（EF.GDO 2F02，標籤 5A），讀卡器也未報告 UID',
  }),
  noDataFile: (fileId: string): Localised => ({
    'en-US': `the card has no data file ${fileId} (CARD_FILE_ID): it is not a card of this system, or it was never formatted ("npm run card -- pcsc-format")`,
    'zh-CN': `卡片上没有数据文件 ${fileId}（CARD_FILE_ID）：它不是本系统的卡片，或从未格式化（"npm run card -- pcsc-format"）`,
    'zh-MO': `卡片上沒有資料檔案 ${fileId}（CARD_FILE_ID）：它不是本系統的卡片，或從未格式化（"npm run card -- pcsc-format"）`,
  }),
  notTransparent: (fileId: string): Localised => ({
    'en-US': `the card's file ${fileId} is not a transparent file`,
    'zh-CN': `卡片的文件 ${fileId} 不是透明文件`,
    'zh-MO': `卡片的檔案 ${fileId} 不是透明檔案`,
  }),
  fileTooShort: (fileId: string, size: number, needed: number): Localised => ({
    'en-US': `the card's file ${fileId} holds ${size} bytes; a card of this system needs ${needed}`,
    'zh-CN': `卡片的文件 ${fileId} 只有 ${size} 字节；本系统的卡片需要 ${needed} 字节`,
    'zh-MO': `卡片的檔案 ${fileId} 只有 ${size} 位元組；本系統的卡片需要 ${needed} 位元組`,
  }),
  accessRefused: (fileId: string, sw: number): Localised => ({
    'en-US': `the card does not let file ${fileId} be read or written (status ${swHex(sw)})`,
    'zh-CN': `卡片不允许读写文件 ${fileId}（状态字 ${swHex(sw)}）`,
    'zh-MO': `卡片不允許讀寫檔案 ${fileId}（狀態字 ${swHex(sw)}）`,
  }),
  unexpectedStatus: (command: string, sw: number): Localised => ({
    'en-US': `the card answered status ${swHex(sw)} to ${command}`,
    'zh-CN': `卡片对 ${command} 返回了状态字 ${swHex(sw)}`,
    'zh-MO': `卡片對 ${command} 回傳了狀態字 ${swHex(sw)}`,
  }),
  notKept: (fileId: string): Localised => ({
    'en-US': `the card did not keep what was written to file ${fileId}; it still holds what it held before`,
    'zh-CN': `卡片没有保存写入文件 ${fileId} 的内容；卡片内容保持不变`,
    'zh-MO': `卡片沒有保存寫入檔案 ${fileId} 的內容；卡片內容保持不變`,
  }),
} as const;

/** What the driver was doing when a command failed: it decides the reader code (docs/cards.md "Real cards"). */
export type Phase = 'reading' | 'writing' | 'committing';

/**
 * The reader code of a card that left the reader, or stopped answering, during `phase`: before any write the card
 * is as it was (990481, place it); during the image the old image still shows (990321); during the commit the new
 * image may or may not have landed (990322: the retry reads the card and finishes or writes again).
 */
export function interrupted(phase: Phase, detail: Localised): ReaderError {
  if (phase === 'reading') return new ReaderError(readerCodes.noCard, detail);
  if (phase === 'writing') return new ReaderError(readerCodes.writeInterruptedBeforeChange, detail);
  return new ReaderError(readerCodes.writeInterruptedWhileCommitting, pcscProblems.commitInterrupted());
}
