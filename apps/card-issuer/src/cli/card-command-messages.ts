import type { CardClass } from '@campus/card-crypto';
import type { Localised } from '@campus/contracts';

/**
 * What the card commands (`npm run card`, card.cmd, ./start.sh card) print, in the three languages: their help,
 * what they did and why they refuse a command line. Command and option names stay as they are typed. Every value an
 * entry takes appears in each of its languages (console-messages.test.ts).
 */
export const cardCommandMessages = {
  usage: (program: string, fileSize: number): Localised => ({
    'en-US': `Usage: ${program} <command> [options]

Commands (the virtual reader of the card issuer):
  list                          the cards and which one is on the reader
  place <fixedNo>               put a card on the reader (taking off any other)
  remove                        take the card off the reader
  blank [--fixed-no X] [--place]
                                make a new blank card (a random fixed number unless given)
  mother --customer-no N --customer-pwd P [--sys-key-code HEX32] [--fixed-no X] [--place]
                                make the vendor's mother card for a customer (spec §5 customer number rules)
  fail --op read|write --code C [--times N]
                                make the next N reads or writes fail with reader code C (990481, 990321, 990322, …)

Commands (a real reader through PC/SC: pcscd, or Windows' Smart Card service; CARD_READER_NAME and CARD_FILE_ID as for the issuer):
  pcsc-readers                  the readers PC/SC sees and whether a card is on them
  pcsc-read                     the fixed number and kind of the card on the reader
  pcsc-format                   make the card's data file CARD_FILE_ID (${fileSize} bytes) on a card that has none
  pcsc-mother --customer-no N --customer-pwd P [--sys-key-code HEX32]
                                write the vendor's mother card for a customer onto the blank card on the reader

Options:
  --data-dir DIR                the card issuer's data folder (default: CARD_ISSUER_DATA_DIR, else ./data/card-issuer)
  --help                        this text
`,
    'zh-CN': `用法：${program} <命令> [选项]

命令（发卡器的虚拟读卡器）：
  list                          列出卡片，并标出读卡器上的那一张
  place <fixedNo>               将一张卡片放到读卡器上（取下其他卡片）
  remove                        从读卡器上取下卡片
  blank [--fixed-no X] [--place]
                                制作一张新的空白卡（未指定固定号时随机生成）
  mother --customer-no N --customer-pwd P [--sys-key-code HEX32] [--fixed-no X] [--place]
                                为客户制作供应商的母卡（客户编号规则见规格 §5）
  fail --op read|write --code C [--times N]
                                让接下来 N 次读取或写入以读卡器代码 C 失败（990481、990321、990322……）

命令（通过 PC/SC 使用真实读卡器：pcscd 或 Windows 智能卡服务；CARD_READER_NAME 和 CARD_FILE_ID 与发卡器相同）：
  pcsc-readers                  列出 PC/SC 找到的读卡器，以及上面是否有卡
  pcsc-read                     显示读卡器上卡片的固定号和类型
  pcsc-format                   在还没有数据文件的卡片上创建数据文件 CARD_FILE_ID（${fileSize} 字节）
  pcsc-mother --customer-no N --customer-pwd P [--sys-key-code HEX32]
                                将客户的供应商母卡写入读卡器上的空白卡

选项：
  --data-dir DIR                发卡器的数据文件夹（默认：CARD_ISSUER_DATA_DIR，否则为 ./data/card-issuer）
  --help                        显示此说明
`,
    'zh-MO': `用法：${program} <命令> [選項]

命令（發卡器的虛擬讀卡器）：
  list                          列出卡片，並標出讀卡器上的那一張
  place <fixedNo>               將一張卡片放到讀卡器上（取下其他卡片）
  remove                        從讀卡器上取下卡片
  blank [--fixed-no X] [--place]
                                製作一張新的空白卡（未指定固定號時隨機產生）
  mother --customer-no N --customer-pwd P [--sys-key-code HEX32] [--fixed-no X] [--place]
                                為客戶製作供應商的母卡（客戶編號規則見規格 §5）
  fail --op read|write --code C [--times N]
                                讓接下來 N 次讀取或寫入以讀卡器代碼 C 失敗（990481、990321、990322……）

命令（透過 PC/SC 使用實體讀卡器：pcscd 或 Windows 智慧卡服務；CARD_READER_NAME 和 CARD_FILE_ID 與發卡器相同）：
  pcsc-readers                  列出 PC/SC 找到的讀卡器，以及上面是否有卡
  pcsc-read                     顯示讀卡器上卡片的固定號和類型
  pcsc-format                   在還沒有資料檔案的卡片上建立資料檔案 CARD_FILE_ID（${fileSize} 位元組）
  pcsc-mother --customer-no N --customer-pwd P [--sys-key-code HEX32]
                                將客戶的供應商母卡寫入讀卡器上的空白卡

選項：
  --data-dir DIR                發卡器的資料資料夾（預設：CARD_ISSUER_DATA_DIR，否則為 ./data/card-issuer）
  --help                        顯示此說明
`,
  }),
  helpHint: (program: string): Localised => ({
    'en-US': `Run "${program} --help" for the commands.`,
    'zh-CN': `运行“${program} --help”查看可用的命令。`,
    'zh-MO': `執行「${program} --help」查看可用的命令。`,
  }),

  // the virtual reader
  onReader: (fixedNo: string): Localised => ({
    'en-US': `card ${fixedNo} is on the reader`,
    'zh-CN': `卡片 ${fixedNo} 已在读卡器上`,
    'zh-MO': `卡片 ${fixedNo} 已在讀卡器上`,
  }),
  noCardsYet: (folder: string): Localised => ({
    'en-US': `no cards yet in ${folder}`,
    'zh-CN': `${folder} 中还没有卡片`,
    'zh-MO': `${folder} 中還沒有卡片`,
  }),
  readerEmpty: { 'en-US': 'the reader is empty', 'zh-CN': '读卡器上没有卡片', 'zh-MO': '讀卡器上沒有卡片' },
  madeBlank: (fixedNo: string): Localised => ({
    'en-US': `made blank card ${fixedNo}`,
    'zh-CN': `已制作空白卡 ${fixedNo}`,
    'zh-MO': `已製作空白卡 ${fixedNo}`,
  }),
  madeMother: (fixedNo: string, customerNo: string): Localised => ({
    'en-US': `made mother card ${fixedNo} for customer ${customerNo}`,
    'zh-CN': `已为客户 ${customerNo} 制作母卡 ${fixedNo}`,
    'zh-MO': `已為客戶 ${customerNo} 製作母卡 ${fixedNo}`,
  }),
  nextFails: (operation: string, code: number): Localised => ({
    'en-US': `the next ${operation} will fail with ${code}`,
    'zh-CN': `下一次${operation}将以 ${code} 失败`,
    'zh-MO': `下一次${operation}將以 ${code} 失敗`,
  }),
  nextTimesFail: (times: number, operations: string, code: number): Localised => ({
    'en-US': `the next ${times} ${operations} will fail with ${code}`,
    'zh-CN': `接下来的 ${times} 次${operations}将以 ${code} 失败`,
    'zh-MO': `接下來的 ${times} 次${operations}將以 ${code} 失敗`,
  }),
  /** The operations a fault is set for: one, and more than one. */
  operations: {
    read: { 'en-US': 'read', 'zh-CN': '读取', 'zh-MO': '讀取' },
    write: { 'en-US': 'write', 'zh-CN': '写入', 'zh-MO': '寫入' },
    reads: { 'en-US': 'reads', 'zh-CN': '读取', 'zh-MO': '讀取' },
    writes: { 'en-US': 'writes', 'zh-CN': '写入', 'zh-MO': '寫入' },
  },
  /** A card's kind (English as the panel's API names it). */
  cardKinds: {
    blank: { 'en-US': 'blank', 'zh-CN': '空白卡', 'zh-MO': '空白卡' },
    mother: { 'en-US': 'mother', 'zh-CN': '母卡', 'zh-MO': '母卡' },
    systemKey: { 'en-US': 'systemKey', 'zh-CN': '系统密钥卡', 'zh-MO': '系統密鑰卡' },
    adminLogin: { 'en-US': 'adminLogin', 'zh-CN': '管理员登录卡', 'zh-MO': '管理員登入卡' },
    unknown: { 'en-US': 'unknown', 'zh-CN': '未知卡片', 'zh-MO': '未知卡片' },
  } satisfies Record<CardClass, Localised>,

  // a real reader
  noPcscReader: { 'en-US': 'no PC/SC reader is plugged in', 'zh-CN': '没有插入 PC/SC 读卡器', 'zh-MO': '沒有插入 PC/SC 讀卡器' },
  readerState: (reader: string, state: string): Localised => ({ 'en-US': `${reader}: ${state}`, 'zh-CN': `${reader}：${state}`, 'zh-MO': `${reader}：${state}` }),
  noCard: { 'en-US': 'no card', 'zh-CN': '没有卡片', 'zh-MO': '沒有卡片' },
  cardMute: { 'en-US': 'card not answering', 'zh-CN': '卡片无响应', 'zh-MO': '卡片無回應' },
  cardWithAtr: (atr: string): Localised => ({ 'en-US': `card present, ATR ${atr}`, 'zh-CN': `有卡，ATR ${atr}`, 'zh-MO': `有卡，ATR ${atr}` }),
  cardRead: (fixedNo: string, kind: string): Localised => ({ 'en-US': `card ${fixedNo}: ${kind}`, 'zh-CN': `卡片 ${fixedNo}：${kind}`, 'zh-MO': `卡片 ${fixedNo}：${kind}` }),
  madeDataFile: (fileId: string, size: number): Localised => ({
    'en-US': `made data file ${fileId} (${size} bytes) on the card`,
    'zh-CN': `已在卡片上创建数据文件 ${fileId}（${size} 字节）`,
    'zh-MO': `已在卡片上建立資料檔案 ${fileId}（${size} 位元組）`,
  }),
  hasDataFile: { 'en-US': 'the card has its data file already', 'zh-CN': '卡片上已有数据文件', 'zh-MO': '卡片上已有資料檔案' },
  wroteMother: (fixedNo: string, customerNo: string): Localised => ({
    'en-US': `wrote mother card ${fixedNo} for customer ${customerNo}`,
    'zh-CN': `已为客户 ${customerNo} 写入母卡 ${fixedNo}`,
    'zh-MO': `已為客戶 ${customerNo} 寫入母卡 ${fixedNo}`,
  }),

  // refusals
  noCommand: { 'en-US': 'no command given', 'zh-CN': '未指定命令', 'zh-MO': '未指定命令' },
  unknownCommand: (command: string): Localised => ({
    'en-US': `unknown command "${command}"`,
    'zh-CN': `未知命令“${command}”`,
    'zh-MO': `未知命令「${command}」`,
  }),
  optionsNotUnderstood: (problem: string): Localised => ({
    'en-US': `the options are not understood: ${problem}`,
    'zh-CN': `无法识别的选项：${problem}`,
    'zh-MO': `無法識別的選項：${problem}`,
  }),
  placeNeedsFixedNo: {
    'en-US': 'place needs the fixed number of a card (see: list)',
    'zh-CN': 'place 需要一张卡片的固定号（见 list）',
    'zh-MO': 'place 需要一張卡片的固定號（見 list）',
  },
  failNeedsOp: { 'en-US': 'fail needs --op read or --op write', 'zh-CN': 'fail 需要 --op read 或 --op write', 'zh-MO': 'fail 需要 --op read 或 --op write' },
  notAReaderCode: (codes: string): Localised => ({
    'en-US': `--code must be a reader code: ${codes}`,
    'zh-CN': `--code 必须是读卡器代码：${codes}`,
    'zh-MO': `--code 必須是讀卡器代碼：${codes}`,
  }),
  customerPasswordMissing: {
    'en-US': 'please enter the customer password (--customer-pwd)',
    'zh-CN': '请输入客户密码（--customer-pwd）',
    'zh-MO': '請輸入客戶密碼（--customer-pwd）',
  },
  sysKeyCodeNotHex: { 'en-US': '--sys-key-code must be 32 hex digits', 'zh-CN': '--sys-key-code 必须是 32 位十六进制数字', 'zh-MO': '--sys-key-code 必須是 32 位十六進位數字' },
  notBlank: (fixedNo: string, kind: string): Localised => ({
    'en-US': `the card ${fixedNo} on the reader is not blank (${kind}): place a blank card`,
    'zh-CN': `读卡器上的卡片 ${fixedNo} 不是空白卡（${kind}）：请放上一张空白卡`,
    'zh-MO': `讀卡器上的卡片 ${fixedNo} 不是空白卡（${kind}）：請放上一張空白卡`,
  }),
};
