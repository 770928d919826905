import type { Localised } from '@campus/contracts';

/**
 * What the card issuer prints to its console, and so to the Windows service's log, in the three languages: the
 * start-up banner and notes, the shutdown, the configuration errors, a failed start, a PC/SC library that does not
 * load. main.ts picks the language once at start (pc-language.ts). Every value an entry takes appears in each of
 * its languages (console-messages.test.ts).
 */
export const consoleMessages = {
  // start and end
  banner: (port: number, readerName: string, dataDir: string, origins: string): Localised => ({
    'en-US': `Card issuer: http://127.0.0.1:${port}/ (${readerName}; cards in ${dataDir})\nAnswers the shell at: ${origins}`,
    'zh-CN': `发卡器：http://127.0.0.1:${port}/（${readerName}；卡片位于 ${dataDir}）\n响应以下平台地址的请求：${origins}`,
    'zh-MO': `發卡器：http://127.0.0.1:${port}/（${readerName}；卡片位於 ${dataDir}）\n回應以下平台位址的請求：${origins}`,
  }),
  shuttingDown: (reason: string): Localised => ({
    'en-US': `${reason}: card issuer shutting down`,
    'zh-CN': `${reason}：发卡器正在关闭`,
    'zh-MO': `${reason}：發卡器正在關閉`,
  }),
  /** Why it shuts down under the Windows service (a signal's name stands as it is). */
  serviceStop: { 'en-US': 'service stop', 'zh-CN': '服务停止', 'zh-MO': '服務停止' },
  serviceGone: { 'en-US': 'service gone', 'zh-CN': '服务已退出', 'zh-MO': '服務已結束' },
  startFailed: (problem: string): Localised => ({
    'en-US': `Card issuer start-up failed: ${problem}`,
    'zh-CN': `发卡器启动失败：${problem}`,
    'zh-MO': `發卡器啟動失敗：${problem}`,
  }),

  // the configuration (docs/operator-pc.md "What the PC needs"); each problem follows the variable's name
  invalidConfiguration: (variable: string, problem: string): Localised => ({
    'en-US': `Invalid configuration: ${variable} ${problem}`,
    'zh-CN': `配置无效：${variable} ${problem}`,
    'zh-MO': `設定無效：${variable} ${problem}`,
  }),
  seeReadme: { 'en-US': 'See the operator PC guide (docs/operator-pc.md), "What the PC needs".', 'zh-CN': '请参阅操作员电脑指南（docs/operator-pc.md）中的“What the PC needs”一节。', 'zh-MO': '請參閱操作員電腦指南（docs/operator-pc.md）中的「What the PC needs」一節。' },
  notAPort: (value: string): Localised => ({
    'en-US': `must be a port number, got "${value}"`,
    'zh-CN': `必须是端口号，实际为“${value}”`,
    'zh-MO': `必須是連接埠號碼，實際為「${value}」`,
  }),
  notAnOrigin: (value: string): Localised => ({
    'en-US': `holds "${value}", which is not an http(s) origin such as http://127.0.0.1:6300`,
    'zh-CN': `的值“${value}”不是 http(s) 源地址（例如 http://127.0.0.1:6300）`,
    'zh-MO': `的值「${value}」不是 http(s) 來源位址（例如 http://127.0.0.1:6300）`,
  }),
  notAReaderKind: (value: string): Localised => ({
    'en-US': `must be virtual or pcsc, got "${value}"`,
    'zh-CN': `必须为 virtual 或 pcsc，实际为“${value}”`,
    'zh-MO': `必須為 virtual 或 pcsc，實際為「${value}」`,
  }),
  notAFileId: (value: string): Localised => ({
    'en-US': `must be the 4 hex digits of a file identifier other than 3F00, 3FFF, FFFF and 2F02, got "${value}"`,
    'zh-CN': `必须是 4 位十六进制的文件标识符（不能是 3F00、3FFF、FFFF 或 2F02），实际为“${value}”`,
    'zh-MO': `必須是 4 位十六進位的檔案識別碼（不能是 3F00、3FFF、FFFF 或 2F02），實際為「${value}」`,
  }),
  readerNameTooLong: (limit: number): Localised => ({
    'en-US': `is longer than ${limit} characters`,
    'zh-CN': `超过 ${limit} 个字符`,
    'zh-MO': `超過 ${limit} 個字元`,
  }),
  notADemoMother: {
    'en-US': 'must be <customer number>:<customer password>, such as 10001:Customer#2026 (the customer number is 1 to 8 digits without a leading zero, and the password is not empty)',
    'zh-CN': '必须为 <客户编号>:<客户密码>，例如 10001:Customer#2026（客户编号为 1 到 8 位数字且不以 0 开头，密码不能为空）',
    'zh-MO': '必須為 <客戶編號>:<客戶密碼>，例如 10001:Customer#2026（客戶編號為 1 到 8 位數字且不以 0 開頭，密碼不能為空）',
  },
  notOnOrOff: (value: string): Localised => ({
    'en-US': `must be "on" or "off", got "${value}"`,
    'zh-CN': `必须为 on 或 off，实际为“${value}”`,
    'zh-MO': `必須為 on 或 off，實際為「${value}」`,
  }),

  // what start-up found (readers/reader-factory.ts)
  demoMotherNotForPcsc: {
    'en-US': 'CARD_ISSUER_DEMO_MOTHER is for the virtual reader: real cards come from the vendor',
    'zh-CN': 'CARD_ISSUER_DEMO_MOTHER 仅用于虚拟读卡器：真实卡片由供应商提供',
    'zh-MO': 'CARD_ISSUER_DEMO_MOTHER 僅用於虛擬讀卡器：實體卡片由供應商提供',
  },
  pcscReaders: (list: string): Localised => ({
    'en-US': `PC/SC readers (* the one used):\n${list}`,
    'zh-CN': `PC/SC 读卡器（* 为正在使用的读卡器）：\n${list}`,
    'zh-MO': `PC/SC 讀卡器（* 為正在使用的讀卡器）：\n${list}`,
  }),
  /** After a reader's name in that list. */
  cardPresent: { 'en-US': ' (card present)', 'zh-CN': '（有卡）', 'zh-MO': '（有卡）' },
  noPcscReaderYet: {
    'en-US': 'No PC/SC reader is plugged in yet: plug one in, the issuer finds it then',
    'zh-CN': '尚未插入 PC/SC 读卡器：插入后发卡器会自动找到它',
    'zh-MO': '尚未插入 PC/SC 讀卡器：插入後發卡器會自動找到它',
  },
  pcscProblem: (problem: string): Localised => ({ 'en-US': `PC/SC: ${problem}`, 'zh-CN': `PC/SC：${problem}`, 'zh-MO': `PC/SC：${problem}` }),
  demoCardsMade: (list: string): Localised => ({
    'en-US': `Demo cards made: ${list}`,
    'zh-CN': `已制作演示卡片：${list}`,
    'zh-MO': `已製作示範卡片：${list}`,
  }),
  demoMotherMade: (fixedNo: string, customerNo: string): Localised => ({
    'en-US': `mother card ${fixedNo} for customer ${customerNo} (on the reader)`,
    'zh-CN': `客户 ${customerNo} 的母卡 ${fixedNo}（在读卡器上）`,
    'zh-MO': `客戶 ${customerNo} 的母卡 ${fixedNo}（在讀卡器上）`,
  }),
  demoBlankMade: (fixedNo: string): Localised => ({ 'en-US': `blank card ${fixedNo}`, 'zh-CN': `空白卡 ${fixedNo}`, 'zh-MO': `空白卡 ${fixedNo}` }),

  // the PC/SC library and the FFI it is called through (readers/pcsc/pcsc-binding.ts)
  pcscLibraryMissing: (library: string, cause: string): Localised => ({
    'en-US': `CARD_READER=pcsc needs the PC/SC library ${library}, which did not load (${cause}).`,
    'zh-CN': `CARD_READER=pcsc 需要 PC/SC 库 ${library}，但它未能加载（${cause}）。`,
    'zh-MO': `CARD_READER=pcsc 需要 PC/SC 程式庫 ${library}，但它未能載入（${cause}）。`,
  }),
  installPcscOnLinux: {
    'en-US': 'Install the PC/SC service and its library: sudo apt-get install pcscd libpcsclite1 (docs/operator-pc.md).',
    'zh-CN': '请安装 PC/SC 服务及其库：sudo apt-get install pcscd libpcsclite1（见 docs/operator-pc.md）。',
    'zh-MO': '請安裝 PC/SC 服務及其程式庫：sudo apt-get install pcscd libpcsclite1（見 docs/operator-pc.md）。',
  },
  pcscIsPartOfWindows: {
    'en-US': 'It is part of Windows: this Windows may be stripped of its smart-card support (docs/operator-pc.md).',
    'zh-CN': '它是 Windows 的组成部分：此 Windows 可能已被移除智能卡支持（见 docs/operator-pc.md）。',
    'zh-MO': '它是 Windows 的一部分：此 Windows 可能已被移除智慧卡支援（見 docs/operator-pc.md）。',
  },
  pcscOtherSystems: {
    'en-US': 'See docs/operator-pc.md for the systems the issuer drives real readers on.',
    'zh-CN': '发卡器可在哪些系统上驱动真实读卡器，请参阅 docs/operator-pc.md。',
    'zh-MO': '發卡器可在哪些系統上驅動實體讀卡器，請參閱 docs/operator-pc.md。',
  },
  koffiMissing: (cause: string): Localised => ({
    'en-US': `CARD_READER=pcsc needs koffi (the FFI the PC/SC driver calls the system's PC/SC library through), which did not load: ${cause}. Unpack the download again, or run npm install.`,
    'zh-CN': `CARD_READER=pcsc 需要 koffi（PC/SC 驱动程序通过这个 FFI 调用系统的 PC/SC 库），但它未能加载：${cause}。请重新解压下载的文件，或运行 npm install。`,
    'zh-MO': `CARD_READER=pcsc 需要 koffi（PC/SC 驅動程式透過這個 FFI 呼叫系統的 PC/SC 程式庫），但它未能載入：${cause}。請重新解壓縮下載的檔案，或執行 npm install。`,
  }),
};
