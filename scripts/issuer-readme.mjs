// README.txt of the card issuer's downloads, in the three languages of the product (en-US, zh-CN, zh-MO), one after
// the other in one file: the operator opens it before anything runs, so it cannot pick a language for him. The
// Windows one has CRLF line ends and a byte-order mark, so that Notepad shows the Chinese parts right on any Windows.

const windows = (platform) => platform.startsWith('win');

const en = (platform) => `Campus card issuer (${platform})
=================================
English first; 简体中文见下文; 繁體中文見下文。

The card issuer of gate deployments: it runs on the operator's PC beside the card reader, and the campus shell
in the browser talks to it at http://127.0.0.1:18085. The whole guide (install, service, the browser's prompt,
readers and cards, every reader code): card-issuer-operator-pc-guide.md on the Tools page of your campus server.

Supports   ${windows(platform) ? 'Windows 10 and 11 (x64): card readers through the Windows Smart Card service (PC/SC).' : 'Linux x64 with glibc (Debian 11+, Ubuntu 20.04+ and alike): card readers through pcscd (PC/SC).'}
           A virtual reader (CARD_READER=virtual) for trying it out.
Start      ${windows(platform) ? 'double-click start.cmd (or run it in a console); Ctrl+C or closing the window stops it' : './start.sh; Ctrl+C stops it'}
Card tool  ${windows(platform) ? 'card.cmd pcsc-readers | pcsc-read | pcsc-format' : './start.sh card pcsc-readers | pcsc-read | pcsc-format'} (readers, the card, format a blank card)
Panel      http://127.0.0.1:18085/reader (readers, the card on each, why there are none)

Settings (environment variables${windows(platform) ? '; for the service: settings.txt, below' : ''}):
  CARD_ISSUER_ALLOWED_ORIGINS  the campus shell's address, e.g. https://campus.example.com (required unless
                               the shell runs on this PC at http://127.0.0.1:6300)
  CARD_READER                  pcsc for a real reader${windows(platform) ? '' : ' (sudo apt-get install pcscd)'}; virtual (the default) is simulated
  CARD_READER_NAME             pcsc: the reader to use (its name or the start of it); the first one if unset
  CARD_ISSUER_PORT             18085
  CARD_ISSUER_DATA_DIR         ${windows(platform) ? 'data beside start.cmd' : 'data beside start.sh'} (the issuer's device key)
  CARD_FILE_ID                 pcsc: the card file that holds the card image, 0101
${
  windows(platform)
    ? `
As a Windows service (starts with Windows, restarted after a crash):
  install    right-click install-service.cmd, "Run as administrator". It copies node.exe and app\\ to
             %ProgramFiles%\\CampusCardIssuer and starts the service CampusCardIssuer (LocalSystem).
  settings   %ProgramData%\\CampusCardIssuer\\settings.txt (NAME=value lines, the variables above; made from the
             ones set in the installer's console). After a change: sc stop CampusCardIssuer, sc start CampusCardIssuer
  log        %ProgramData%\\CampusCardIssuer\\logs\\issuer.log (1 MiB, then issuer.log.1 ... issuer.log.4)
  uninstall  right-click uninstall-service.cmd, "Run as administrator". The data folder
             %ProgramData%\\CampusCardIssuer (device key, settings, log) stays.
  The device key is sealed to this PC (Windows DPAPI): a data folder copied to another PC opens nothing there.
`
    : ''
}`;

const zhCN = (platform) => `校园发卡器（${platform}）
=================================

门禁部署的发卡器：它运行在读卡器旁的操作员电脑上，浏览器中的校园平台通过 http://127.0.0.1:18085 与它通信。
完整指南（安装、服务、浏览器提示、读卡器与卡片、每个读卡器代码）：校园服务器"工具"页面上的
card-issuer-operator-pc-guide.md。

支持       ${windows(platform) ? 'Windows 10 和 11（x64）：通过 Windows 智能卡服务（PC/SC）使用读卡器。' : 'Linux x64（glibc：Debian 11+、Ubuntu 20.04+ 等）：通过 pcscd（PC/SC）使用读卡器。'}
           虚拟读卡器（CARD_READER=virtual）用于试用。
启动       ${windows(platform) ? '双击 start.cmd（或在命令行中运行）；按 Ctrl+C 或关闭窗口即停止' : './start.sh；按 Ctrl+C 停止'}
卡片工具   ${windows(platform) ? 'card.cmd pcsc-readers | pcsc-read | pcsc-format' : './start.sh card pcsc-readers | pcsc-read | pcsc-format'}（列出读卡器、读卡、格式化空白卡）
面板       http://127.0.0.1:18085/reader（读卡器、每个读卡器上的卡片、没有读卡器的原因）

设置（环境变量${windows(platform) ? '；服务使用下文的 settings.txt' : ''}）：
  CARD_ISSUER_ALLOWED_ORIGINS  校园平台的地址，例如 https://campus.example.com（除非平台就在本机
                               http://127.0.0.1:6300，否则必须设置）
  CARD_READER                  真实读卡器用 pcsc${windows(platform) ? '' : '（sudo apt-get install pcscd）'}；virtual（默认）为模拟读卡器
  CARD_READER_NAME             pcsc：要使用的读卡器（名称或名称开头）；未设置时用第一个
  CARD_ISSUER_PORT             18085
  CARD_ISSUER_DATA_DIR         ${windows(platform) ? 'start.cmd 旁的 data 文件夹' : 'start.sh 旁的 data 文件夹'}（发卡器的设备密钥）
  CARD_FILE_ID                 pcsc：存放卡片映像的卡内文件，0101
${
  windows(platform)
    ? `
作为 Windows 服务（随 Windows 启动，崩溃后自动重启）：
  安装       右键 install-service.cmd，选择"以管理员身份运行"。它把 node.exe 和 app\\ 复制到
             %ProgramFiles%\\CampusCardIssuer，并启动服务 CampusCardIssuer（LocalSystem）。
  设置       %ProgramData%\\CampusCardIssuer\\settings.txt（每行 NAME=value，即上面的变量；由安装时命令行中已设置的
             变量生成）。修改后：sc stop CampusCardIssuer，sc start CampusCardIssuer
  日志       %ProgramData%\\CampusCardIssuer\\logs\\issuer.log（满 1 MiB 后轮转为 issuer.log.1 … issuer.log.4）
  卸载       右键 uninstall-service.cmd，选择"以管理员身份运行"。数据文件夹
             %ProgramData%\\CampusCardIssuer（设备密钥、设置、日志）会保留。
  设备密钥用 Windows DPAPI 封存在本机：数据文件夹复制到其他电脑后无法打开。
`
    : ''
}`;

const zhMO = (platform) => `校園發卡器（${platform}）
=================================

門禁部署的發卡器：它執行在讀卡器旁的操作員電腦上，瀏覽器中的校園平台透過 http://127.0.0.1:18085 與它通訊。
完整指南（安裝、服務、瀏覽器提示、讀卡器與卡片、每個讀卡器代碼）：校園伺服器「工具」頁面上的
card-issuer-operator-pc-guide.md。

支援       ${windows(platform) ? 'Windows 10 和 11（x64）：透過 Windows 智慧卡服務（PC/SC）使用讀卡器。' : 'Linux x64（glibc：Debian 11+、Ubuntu 20.04+ 等）：透過 pcscd（PC/SC）使用讀卡器。'}
           虛擬讀卡器（CARD_READER=virtual）用於試用。
啟動       ${windows(platform) ? '按兩下 start.cmd（或在命令列中執行）；按 Ctrl+C 或關閉視窗即停止' : './start.sh；按 Ctrl+C 停止'}
卡片工具   ${windows(platform) ? 'card.cmd pcsc-readers | pcsc-read | pcsc-format' : './start.sh card pcsc-readers | pcsc-read | pcsc-format'}（列出讀卡器、讀卡、格式化空白卡）
面板       http://127.0.0.1:18085/reader（讀卡器、每個讀卡器上的卡片、沒有讀卡器的原因）

設定（環境變數${windows(platform) ? '；服務使用下文的 settings.txt' : ''}）：
  CARD_ISSUER_ALLOWED_ORIGINS  校園平台的位址，例如 https://campus.example.com（除非平台就在本機
                               http://127.0.0.1:6300，否則必須設定）
  CARD_READER                  真實讀卡器用 pcsc${windows(platform) ? '' : '（sudo apt-get install pcscd）'}；virtual（預設）為模擬讀卡器
  CARD_READER_NAME             pcsc：要使用的讀卡器（名稱或名稱開頭）；未設定時用第一個
  CARD_ISSUER_PORT             18085
  CARD_ISSUER_DATA_DIR         ${windows(platform) ? 'start.cmd 旁的 data 資料夾' : 'start.sh 旁的 data 資料夾'}（發卡器的裝置金鑰）
  CARD_FILE_ID                 pcsc：存放卡片映像的卡內檔案，0101
${
  windows(platform)
    ? `
作為 Windows 服務（隨 Windows 啟動，當機後自動重新啟動）：
  安裝       在 install-service.cmd 上按右鍵，選擇「以系統管理員身分執行」。它把 node.exe 和 app\\ 複製到
             %ProgramFiles%\\CampusCardIssuer，並啟動服務 CampusCardIssuer（LocalSystem）。
  設定       %ProgramData%\\CampusCardIssuer\\settings.txt（每行 NAME=value，即上面的變數；由安裝時命令列中已設定的
             變數產生）。修改後：sc stop CampusCardIssuer，sc start CampusCardIssuer
  記錄       %ProgramData%\\CampusCardIssuer\\logs\\issuer.log（滿 1 MiB 後輪替為 issuer.log.1 … issuer.log.4）
  解除安裝   在 uninstall-service.cmd 上按右鍵，選擇「以系統管理員身分執行」。資料夾
             %ProgramData%\\CampusCardIssuer（裝置金鑰、設定、記錄）會保留。
  裝置金鑰以 Windows DPAPI 封存在本機：資料夾複製到其他電腦後無法開啟。
`
    : ''
}`;

/** The README.txt of `platform`'s download (linux-x64, win-x64), as the bytes to write. */
export function issuerReadme(platform) {
  const text = [en(platform), zhCN(platform), zhMO(platform)].join('\n\n');
  return windows(platform) ? `\uFEFF${text.replaceAll('\n', '\r\n')}` : text;
}
