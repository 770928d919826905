import type { Localised } from '@campus/contracts';
import type { ServiceStateName } from './service-names.ts';

const states: Record<ServiceStateName, Localised> = {
  stopped: { 'en-US': 'stopped', 'zh-CN': '已停止', 'zh-MO': '已停止' },
  startPending: { 'en-US': 'starting', 'zh-CN': '正在启动', 'zh-MO': '正在啟動' },
  stopPending: { 'en-US': 'stopping', 'zh-CN': '正在停止', 'zh-MO': '正在停止' },
  running: { 'en-US': 'running', 'zh-CN': '正在运行', 'zh-MO': '正在執行' },
  continuePending: { 'en-US': 'resuming', 'zh-CN': '正在继续', 'zh-MO': '正在繼續' },
  pausePending: { 'en-US': 'pausing', 'zh-CN': '正在暂停', 'zh-MO': '正在暫停' },
  paused: { 'en-US': 'paused', 'zh-CN': '已暂停', 'zh-MO': '已暫停' },
};
const each = (make: (language: keyof Localised) => string): Localised => ({ 'en-US': make('en-US'), 'zh-CN': make('zh-CN'), 'zh-MO': make('zh-MO') });

/** What the Windows service (supervisor) writes to its log and the installer prints, in the three languages. */
export const serviceMessages = {
  serviceStarting: (version: string, pid: number, dataDir: string, settings: string): Localised => ({
    'en-US': `Card issuer service ${version} starting (process ${pid}): data in ${dataDir}, settings in ${settings}`,
    'zh-CN': `发卡服务 ${version} 正在启动（进程 ${pid}）：数据位于 ${dataDir}，设置位于 ${settings}`,
    'zh-MO': `發卡服務 ${version} 正在啟動（程序 ${pid}）：資料位於 ${dataDir}，設定位於 ${settings}`,
  }),
  issuerStarted: (pid: number): Localised => ({
    'en-US': `Card issuer started (process ${pid})`,
    'zh-CN': `发卡器已启动（进程 ${pid}）`,
    'zh-MO': `發卡器已啟動（程序 ${pid}）`,
  }),
  issuerCrashed: (how: string, ranSeconds: number, waitSeconds: number, count: number): Localised => ({
    'en-US': `The card issuer ended unexpectedly (${how}) after ${ranSeconds} s; starting it again in ${waitSeconds} s (restart ${count})`,
    'zh-CN': `发卡器意外结束（${how}），已运行 ${ranSeconds} 秒；将在 ${waitSeconds} 秒后重新启动（第 ${count} 次重启）`,
    'zh-MO': `發卡器意外結束（${how}），已執行 ${ranSeconds} 秒；將在 ${waitSeconds} 秒後重新啟動（第 ${count} 次重啟）`,
  }),
  issuerStopped: (): Localised => ({ 'en-US': 'The card issuer has stopped', 'zh-CN': '发卡器已停止', 'zh-MO': '發卡器已停止' }),
  issuerForced: (seconds: number): Localised => ({
    'en-US': `The card issuer did not stop within ${seconds} s: ending it`,
    'zh-CN': `发卡器未在 ${seconds} 秒内停止：强制结束`,
    'zh-MO': `發卡器未在 ${seconds} 秒內停止：強制結束`,
  }),
  stopRequested: (reason: 'stop' | 'shutdown'): Localised =>
    reason === 'stop'
      ? { 'en-US': 'Windows asked the service to stop', 'zh-CN': 'Windows 请求停止服务', 'zh-MO': 'Windows 要求停止服務' }
      : { 'en-US': 'Windows is shutting down: stopping the service', 'zh-CN': 'Windows 正在关机：停止服务', 'zh-MO': 'Windows 正在關機：停止服務' },
  serviceStopped: (): Localised => ({ 'en-US': 'Card issuer service stopped', 'zh-CN': '发卡服务已停止', 'zh-MO': '發卡服務已停止' }),
  serviceFailed: (problem: string): Localised => ({
    'en-US': `The card issuer service failed: ${problem}`,
    'zh-CN': `发卡服务出错：${problem}`,
    'zh-MO': `發卡服務出錯：${problem}`,
  }),
  settingsIgnored: (line: number, problem: string): Localised => ({
    'en-US': `settings.txt line ${line} is ignored: ${problem}`,
    'zh-CN': `settings.txt 第 ${line} 行已忽略：${problem}`,
    'zh-MO': `settings.txt 第 ${line} 行已忽略：${problem}`,
  }),
  notAService: (): Localised => ({
    'en-US': 'service.mjs is started by Windows (the service "CampusCardIssuer"). To install the service run install-service.cmd as administrator; to use the issuer in a console run start.cmd.',
    'zh-CN': 'service.mjs 由 Windows 启动（服务 "CampusCardIssuer"）。要安装服务，请以管理员身份运行 install-service.cmd；要在命令行窗口中使用发卡器，请运行 start.cmd。',
    'zh-MO': 'service.mjs 由 Windows 啟動（服務 "CampusCardIssuer"）。要安裝服務，請以系統管理員身分執行 install-service.cmd；要在命令列視窗中使用發卡器，請執行 start.cmd。',
  }),

  // the installer
  notWindows: (): Localised => ({
    'en-US': 'The card issuer service is for Windows; on Linux start the issuer with start.sh (or a systemd unit).',
    'zh-CN': '发卡服务仅适用于 Windows；在 Linux 上请用 start.sh（或 systemd 单元）启动发卡器。',
    'zh-MO': '發卡服務僅適用於 Windows；在 Linux 上請用 start.sh（或 systemd 單元）啟動發卡器。',
  }),
  notAdministrator: (script: string): Localised => ({
    'en-US': `${script} needs administrator rights: right-click ${script} and choose "Run as administrator".`,
    'zh-CN': `${script} 需要管理员权限：请右键单击 ${script}，然后选择“以管理员身份运行”。`,
    'zh-MO': `${script} 需要系統管理員權限：請在 ${script} 上按右鍵，然後選擇「以系統管理員身分執行」。`,
  }),
  alreadyInstalled: (state: ServiceStateName, programDir: string): Localised =>
    each((l) =>
      l === 'en-US'
        ? `The card issuer service (CampusCardIssuer) is already installed (${states[state][l]}), from ${programDir}. Nothing was changed. To install another version, run uninstall-service.cmd first, then install-service.cmd.`
        : l === 'zh-CN'
          ? `发卡服务（CampusCardIssuer）已安装（${states[state][l]}），程序位于 ${programDir}。未做任何更改。要安装其他版本，请先运行 uninstall-service.cmd，再运行 install-service.cmd。`
          : `發卡服務（CampusCardIssuer）已安裝（${states[state][l]}），程式位於 ${programDir}。未做任何變更。要安裝其他版本，請先執行 uninstall-service.cmd，再執行 install-service.cmd。`,
    ),
  copying: (programDir: string): Localised => ({
    'en-US': `Copying the issuer to ${programDir} ...`,
    'zh-CN': `正在将发卡器复制到 ${programDir} ...`,
    'zh-MO': `正在將發卡器複製到 ${programDir} ...`,
  }),
  dataFolder: (dataDir: string): Localised => ({
    'en-US': `Data folder (device key, settings, log): ${dataDir}, for SYSTEM and Administrators only`,
    'zh-CN': `数据文件夹（设备密钥、设置、日志）：${dataDir}，仅 SYSTEM 和 Administrators 可访问`,
    'zh-MO': `資料資料夾（裝置金鑰、設定、日誌）：${dataDir}，僅 SYSTEM 和 Administrators 可存取`,
  }),
  aclFailed: (dataDir: string, problem: string): Localised => ({
    'en-US': `Warning: the data folder ${dataDir} could not be closed to other users (icacls: ${problem}); other users of this PC may read it.`,
    'zh-CN': `警告：无法限制其他用户访问数据文件夹 ${dataDir}（icacls：${problem}）；本机其他用户可能可以读取它。`,
    'zh-MO': `警告：無法限制其他使用者存取資料資料夾 ${dataDir}（icacls：${problem}）；本機其他使用者可能可以讀取它。`,
  }),
  settingsWritten: (file: string): Localised => ({
    'en-US': `Settings written to ${file} (edit it with Notepad, then restart the service)`,
    'zh-CN': `设置已写入 ${file}（可用记事本编辑，之后重新启动服务）`,
    'zh-MO': `設定已寫入 ${file}（可用記事本編輯，之後重新啟動服務）`,
  }),
  settingsKept: (file: string): Localised => ({
    'en-US': `Settings kept from before: ${file}`,
    'zh-CN': `沿用已有的设置：${file}`,
    'zh-MO': `沿用既有的設定：${file}`,
  }),
  commandFailed: (command: string, problem: string): Localised => ({
    'en-US': `"${command}" failed: ${problem}`,
    'zh-CN': `“${command}”执行失败：${problem}`,
    'zh-MO': `「${command}」執行失敗：${problem}`,
  }),
  installed: (url: string, logFile: string): Localised => ({
    'en-US': `The card issuer service (CampusCardIssuer) is installed and running: ${url}. It starts with Windows and is restarted after a crash. Log: ${logFile}`,
    'zh-CN': `发卡服务（CampusCardIssuer）已安装并正在运行：${url}。它随 Windows 启动，崩溃后会自动重新启动。日志：${logFile}`,
    'zh-MO': `發卡服務（CampusCardIssuer）已安裝並正在執行：${url}。它隨 Windows 啟動，當機後會自動重新啟動。日誌：${logFile}`,
  }),
  notRunningYet: (state: ServiceStateName, logFile: string): Localised =>
    each((l) =>
      l === 'en-US'
        ? `The service is installed but not running (${states[state][l]}): see the log ${logFile}`
        : l === 'zh-CN'
          ? `服务已安装但未运行（${states[state][l]}）：请查看日志 ${logFile}`
          : `服務已安裝但未執行（${states[state][l]}）：請查看日誌 ${logFile}`,
    ),
  notInstalled: (): Localised => ({
    'en-US': 'The card issuer service (CampusCardIssuer) is not installed: nothing to remove.',
    'zh-CN': '发卡服务（CampusCardIssuer）未安装：无需移除。',
    'zh-MO': '發卡服務（CampusCardIssuer）未安裝：無需移除。',
  }),
  stopping: (): Localised => ({ 'en-US': 'Stopping the service ...', 'zh-CN': '正在停止服务 ...', 'zh-MO': '正在停止服務 ...' }),
  stopTimedOut: (seconds: number): Localised => ({
    'en-US': `The service did not stop within ${seconds} s; it is removed anyway and goes when it stops (or at the next restart of Windows).`,
    'zh-CN': `服务未在 ${seconds} 秒内停止；仍将移除，它会在停止后（或下次重新启动 Windows 时）消失。`,
    'zh-MO': `服務未在 ${seconds} 秒內停止；仍將移除，它會在停止後（或下次重新啟動 Windows 時）消失。`,
  }),
  uninstalled: (dataDir: string): Localised => ({
    'en-US': `The card issuer service is removed. Its data folder ${dataDir} is kept (device key, settings, log): delete it to make this PC a new issuer, which the server must trust again.`,
    'zh-CN': `发卡服务已移除。其数据文件夹 ${dataDir} 已保留（设备密钥、设置、日志）：删除它会使本机成为新的发卡器，需要服务器重新信任。`,
    'zh-MO': `發卡服務已移除。其資料資料夾 ${dataDir} 已保留（裝置金鑰、設定、日誌）：刪除它會使本機成為新的發卡器，需要伺服器重新信任。`,
  }),
  programDirLeft: (programDir: string, problem: string): Localised => ({
    'en-US': `The program folder ${programDir} could not be removed (${problem}): delete it yourself.`,
    'zh-CN': `无法删除程序文件夹 ${programDir}（${problem}）：请手动删除。`,
    'zh-MO': `無法刪除程式資料夾 ${programDir}（${problem}）：請手動刪除。`,
  }),
  usage: (): Localised => ({
    'en-US': 'Usage: node.exe app\\service-install.mjs install | uninstall | status',
    'zh-CN': '用法：node.exe app\\service-install.mjs install | uninstall | status',
    'zh-MO': '用法：node.exe app\\service-install.mjs install | uninstall | status',
  }),
  status: (state: ServiceStateName | null): Localised =>
    state === null
      ? { 'en-US': 'CampusCardIssuer: not installed', 'zh-CN': 'CampusCardIssuer：未安装', 'zh-MO': 'CampusCardIssuer：未安裝' }
      : each((l) => `CampusCardIssuer: ${states[state][l]}`),
};
