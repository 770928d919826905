import type { LanguageCode, Localised } from './languages.ts';
import { codes, type BusinessCode } from './business-codes.ts';

// The messages live apart from the codes: a page that only compares codes (the login page) need not carry
// every message in three languages (issue 27).

/** The message the server sends with each failure code, in the caller's language. */
export const codeMessages: Record<BusinessCode, Localised> = {
  [codes.ok]: { 'en-US': 'Success', 'zh-CN': '成功', 'zh-MO': '成功' },
  [codes.tokenInvalid]: { 'en-US': 'Your sign-in is not valid, please sign in again', 'zh-CN': '登录信息无效，请重新登录', 'zh-MO': '登入資訊無效，請重新登入' },
  [codes.tokenExpired]: { 'en-US': 'Your sign-in has expired, please sign in again', 'zh-CN': '登录已过期，请重新登录', 'zh-MO': '登入已過期，請重新登入' },
  [codes.accountDisabled]: { 'en-US': 'This account is disabled, please contact the administrator', 'zh-CN': '该账号已停用，请联系管理员', 'zh-MO': '該帳號已停用，請聯絡管理員' },
  [codes.badRequest]: { 'en-US': 'The request is not valid', 'zh-CN': '请求参数不正确', 'zh-MO': '請求參數不正確' },
  [codes.accountOrPasswordWrong]: { 'en-US': 'Wrong account or password', 'zh-CN': '账号或密码错误', 'zh-MO': '帳號或密碼錯誤' },
  [codes.accountLocked]: { 'en-US': 'Too many failed sign-ins: the account is locked until {time}', 'zh-CN': '登录失败次数过多，账号已锁定至 {time}', 'zh-MO': '登入失敗次數過多，帳號已鎖定至 {time}' },
  [codes.captchaRequired]: { 'en-US': 'Please enter the verification code', 'zh-CN': '请输入验证码', 'zh-MO': '請輸入驗證碼' },
  [codes.captchaWrong]: { 'en-US': 'Wrong verification code', 'zh-CN': '验证码错误', 'zh-MO': '驗證碼錯誤' },
  [codes.captchaExpired]: { 'en-US': 'The verification code has expired or was already used, please use the new one', 'zh-CN': '验证码已过期或已使用，请使用新的验证码', 'zh-MO': '驗證碼已過期或已使用，請使用新的驗證碼' },
  [codes.tenantRequired]: { 'en-US': 'Please choose a tenant', 'zh-CN': '请选择租户', 'zh-MO': '請選擇租戶' },
  [codes.tenantUnknown]: { 'en-US': 'Unknown tenant', 'zh-CN': '租户不存在', 'zh-MO': '租戶不存在' },
  [codes.ldapDisabled]: { 'en-US': 'LDAP sign-in is not enabled', 'zh-CN': '未启用 LDAP 登录', 'zh-MO': '未啟用 LDAP 登入' },
  [codes.ldapUnavailable]: { 'en-US': 'The LDAP directory cannot be reached, please try again later', 'zh-CN': '无法连接 LDAP 目录服务，请稍后再试', 'zh-MO': '無法連接 LDAP 目錄服務，請稍後再試' },
  [codes.ldapNoLocalAccount]: { 'en-US': 'This directory account has no account in the system, please contact the administrator', 'zh-CN': '该目录账号在系统中没有对应账号，请联系管理员', 'zh-MO': '該目錄帳號在系統中沒有對應帳號，請聯絡管理員' },
  [codes.ssoProviderUnknown]: { 'en-US': 'This sign-in service is not set up for the tenant, please contact the administrator', 'zh-CN': '该租户未配置此登录服务，请联系管理员', 'zh-MO': '該租戶未設定此登入服務，請聯絡管理員' },
  [codes.ssoStateInvalid]: { 'en-US': 'The sign-in took too long or was started elsewhere, please start it again', 'zh-CN': '登录超时或不是从本页发起的，请重新登录', 'zh-MO': '登入逾時或不是從本頁發起的，請重新登入' },
  [codes.ssoProviderUnreachable]: { 'en-US': 'The sign-in service cannot be reached, please try again later', 'zh-CN': '无法连接登录服务，请稍后再试', 'zh-MO': '無法連接登入服務，請稍後再試' },
  [codes.ssoTokenRejected]: { 'en-US': 'The answer of the sign-in service could not be verified, please sign in again', 'zh-CN': '无法验证登录服务的应答，请重新登录', 'zh-MO': '無法驗證登入服務的應答，請重新登入' },
  [codes.ssoTicketRejected]: { 'en-US': 'The sign-in service refused the ticket, please sign in again', 'zh-CN': '登录服务拒绝了票据，请重新登录', 'zh-MO': '登入服務拒絕了票據，請重新登入' },
  [codes.ssoAccountUnknown]: { 'en-US': 'You are signed in at the sign-in service but have no account in this system, please contact the administrator', 'zh-CN': '您已在登录服务登录，但在本系统中没有账号，请联系管理员', 'zh-MO': '您已在登入服務登入，但在本系統中沒有帳號，請聯絡管理員' },
  [codes.ssoAccountClaimMissing]: { 'en-US': 'The sign-in service did not say which account you are, please contact the administrator', 'zh-CN': '登录服务未提供您的账号，请联系管理员', 'zh-MO': '登入服務未提供您的帳號，請聯絡管理員' },
  [codes.ssoLoginTicketInvalid]: { 'en-US': 'This sign-in link has expired or was already used, please sign in again', 'zh-CN': '此登录链接已过期或已使用，请重新登录', 'zh-MO': '此登入連結已過期或已使用，請重新登入' },
  [codes.ssoProviderConfigInvalid]: { 'en-US': 'The sign-in service settings are not valid: {field}', 'zh-CN': '登录服务设置不正确：{field}', 'zh-MO': '登入服務設定不正確：{field}' },
  [codes.ssoResponseInvalid]: { 'en-US': 'The sign-in service sent an answer that is not valid, please contact the administrator', 'zh-CN': '登录服务的应答格式不正确，请联系管理员', 'zh-MO': '登入服務的應答格式不正確，請聯絡管理員' },
  [codes.ssoSignInDeclined]: { 'en-US': 'The sign-in service did not sign you in (cancelled or refused), please try again', 'zh-CN': '登录服务未完成登录（已取消或被拒绝），请重试', 'zh-MO': '登入服務未完成登入（已取消或被拒絕），請重試' },
  [codes.ssoProviderAddressRefused]: { 'en-US': 'The sign-in service address is on a network the operator has not opened to sign-in services (refused by policy; the operator opens networks with {setting}): {field}', 'zh-CN': '登录服务地址位于运维人员未向登录服务开放的网络（被策略拒绝；由运维人员通过 {setting} 开放网络）：{field}', 'zh-MO': '登入服務位址位於運維人員未向登入服務開放的網路（被策略拒絕；由運維人員透過 {setting} 開放網路）：{field}' },
  [codes.noPermission]: { 'en-US': 'No permission', 'zh-CN': '没有权限', 'zh-MO': '沒有權限' },
  [codes.notFound]: { 'en-US': 'Not found', 'zh-CN': '资源不存在', 'zh-MO': '資源不存在' },
  [codes.passwordPolicy]: { 'en-US': 'The new password does not meet the password policy', 'zh-CN': '新密码不符合密码规则', 'zh-MO': '新密碼不符合密碼規則' },
  [codes.passwordReused]: { 'en-US': 'The new password must differ from the current one', 'zh-CN': '新密码不能与当前密码相同', 'zh-MO': '新密碼不能與目前密碼相同' },
  [codes.oldPasswordWrong]: { 'en-US': 'The original password is wrong', 'zh-CN': '原密码错误', 'zh-MO': '原密碼錯誤' },
  [codes.tooManyRequests]: { 'en-US': 'Too many requests, please try again later', 'zh-CN': '请求过于频繁，请稍后再试', 'zh-MO': '請求過於頻繁，請稍後再試' },
  [codes.signInThrottled]: { 'en-US': 'Too many failed sign-ins from this address: please wait {seconds} s and enter the verification code', 'zh-CN': '此地址登录失败次数过多：请等待 {seconds} 秒并输入验证码', 'zh-MO': '此地址登入失敗次數過多：請等待 {seconds} 秒並輸入驗證碼' },
  [codes.licenceTampered]: { 'en-US': 'Authorization tampered: the licence file is damaged, was changed, or is not signed by a trusted vendor key', 'zh-CN': '授权被篡改：授权文件已损坏、被修改或不是由受信任的厂商密钥签发', 'zh-MO': '授權被篡改：授權檔案已損壞、被修改或不是由受信任的廠商密鑰簽發' },
  [codes.licenceOtherInstallation]: { 'en-US': 'This licence is for another installation (customer number {customerNo})', 'zh-CN': '该授权属于其他安装（客户编号 {customerNo}）', 'zh-MO': '該授權屬於其他安裝（客戶編號 {customerNo}）' },
  [codes.licenceNotActivatable]: { 'en-US': 'This licence cannot be activated: it has expired or has not started yet', 'zh-CN': '该授权无法激活：已过期或尚未生效', 'zh-MO': '該授權無法啟用：已過期或尚未生效' },
  [codes.licenceNoTrustedKey]: { 'en-US': 'No vendor key is trusted on this server: set LICENCE_TRUST_FILE (see docs/licences.md)', 'zh-CN': '服务器未配置受信任的厂商密钥：请设置 LICENCE_TRUST_FILE（见 docs/licences.md）', 'zh-MO': '伺服器未設定受信任的廠商密鑰：請設定 LICENCE_TRUST_FILE（見 docs/licences.md）' },
  [codes.licenceNotLicFile]: { 'en-US': 'Only .lic licence files are accepted', 'zh-CN': '只能上传 .lic 授权文件', 'zh-MO': '只能上傳 .lic 授權檔案' },
  [codes.licenceFileTooLarge]: { 'en-US': 'The file is larger than {max} KiB: it is not a licence file', 'zh-CN': '文件超过 {max} KiB，不是授权文件', 'zh-MO': '檔案超過 {max} KiB，不是授權檔案' },
  [codes.licenceCodeConflict]: { 'en-US': 'A different licence with the code {code} is already stored', 'zh-CN': '已存在编号为 {code} 的另一份授权', 'zh-MO': '已存在編號為 {code} 的另一份授權' },
  [codes.trialAlreadyRegistered]: { 'en-US': 'A trial licence was already registered for this installation', 'zh-CN': '本系统已注册过试用授权', 'zh-MO': '本系統已註冊過試用授權' },
  [codes.adminPasswordWrong]: { 'en-US': 'The administrator password is wrong', 'zh-CN': '管理员密码错误', 'zh-MO': '管理員密碼錯誤' },
  [codes.trialNotNeeded]: { 'en-US': 'A licence is in effect: a trial licence is not needed', 'zh-CN': '已有生效的授权，无需试用授权', 'zh-MO': '已有生效的授權，無需試用授權' },
  [codes.passwordChangeRequired]: { 'en-US': 'Your password must be changed before you can go on: change it, or sign out', 'zh-CN': '请先修改密码再继续：请修改密码或退出登录', 'zh-MO': '請先修改密碼再繼續：請修改密碼或登出' },
  [codes.licenceRequired]: { 'en-US': 'The system has no valid licence: only a system administrator can add or activate one', 'zh-CN': '系统没有有效的授权：只有系统管理员可以添加或激活授权', 'zh-MO': '系統沒有有效的授權：只有系統管理員可以新增或啟用授權' },
  [codes.noSubsystem]: { 'en-US': 'The current user has not enabled any subsystem, please contact the administrator', 'zh-CN': '当前用户未开通任何子系统，请联系管理员', 'zh-MO': '目前用戶未開通任何子系統，請聯絡管理員' },
  [codes.versionNotReportable]: { 'en-US': 'Not a program of this installation: {serviceName} {version} at {address}', 'zh-CN': '不是本系统的程序：{serviceName} {version}（{address}）', 'zh-MO': '不是本系統的程式：{serviceName} {version}（{address}）' },
  [codes.notGateSystem]: { 'en-US': 'This is not a gate deployment: card set-up and card sign-in are off', 'zh-CN': '此系统不是门禁部署：未启用卡片初始化和刷卡登录', 'zh-MO': '此系統不是門禁部署：未啟用卡片初始化和刷卡登入' },
  [codes.systemNotInitialised]: { 'en-US': 'The system has not been initialised yet: run system initialisation with the mother card first', 'zh-CN': '系统尚未初始化：请先用母卡执行系统初始化', 'zh-MO': '系統尚未初始化：請先用母卡執行系統初始化' },
  [codes.systemAlreadyInitialised]: { 'en-US': 'The system is already initialised', 'zh-CN': '系统已初始化', 'zh-MO': '系統已初始化' },
  [codes.systemSecretMissing]: { 'en-US': 'The server cannot open its system key: recover it with the system key card and the customer password', 'zh-CN': '服务器无法打开系统密钥：请用系统密钥卡和客户密码恢复', 'zh-MO': '伺服器無法開啟系統密鑰：請用系統密鑰卡和客戶密碼恢復' },
  [codes.customerPasswordWrong]: { 'en-US': 'The customer password does not match the card on the reader', 'zh-CN': '客户密码与读卡器上的卡片不符', 'zh-MO': '客戶密碼與讀卡器上的卡片不符' },
  [codes.customerNoMismatch]: { 'en-US': 'The customer number {customerNo} is not the one of the mother card on the reader', 'zh-CN': '客户编号 {customerNo} 与读卡器上的母卡不符', 'zh-MO': '客戶編號 {customerNo} 與讀卡器上的母卡不符' },
  [codes.customerNoOtherInstallation]: { 'en-US': 'This installation belongs to customer number {customerNo}: the mother card is for another customer', 'zh-CN': '本系统属于客户编号 {customerNo}：此母卡属于其他客户', 'zh-MO': '本系統屬於客戶編號 {customerNo}：此母卡屬於其他客戶' },
  [codes.notMotherCard]: { 'en-US': 'The card on the reader is not a system mother card', 'zh-CN': '读卡器上的卡片不是系统母卡', 'zh-MO': '讀卡器上的卡片不是系統母卡' },
  [codes.motherCardUsed]: { 'en-US': 'This mother card has already initialised another system', 'zh-CN': '此母卡已初始化过其他系统', 'zh-MO': '此母卡已初始化過其他系統' },
  [codes.masterCardRejected]: { 'en-US': 'This is not the mother card of this system, or it was changed', 'zh-CN': '此卡不是本系统的母卡，或已被修改', 'zh-MO': '此卡不是本系統的母卡，或已被修改' },
  [codes.masterCardTokenInvalid]: { 'en-US': 'Swipe the system mother card first (the last swipe has expired)', 'zh-CN': '请先刷系统母卡（上次刷卡已过期）', 'zh-MO': '請先刷系統母卡（上次刷卡已過期）' },
  [codes.setUpStepMissing]: { 'en-US': 'An earlier set-up step is not done yet: {step}', 'zh-CN': '尚未完成之前的设置步骤：{step}', 'zh-MO': '尚未完成之前的設定步驟：{step}' },
  [codes.setUpStepDone]: { 'en-US': 'This set-up step is already done: {step}', 'zh-CN': '此设置步骤已完成：{step}', 'zh-MO': '此設定步驟已完成：{step}' },
  [codes.cardWriteUnknown]: { 'en-US': 'The card write being confirmed is unknown or has expired: start again', 'zh-CN': '要确认的写卡操作不存在或已过期：请重新开始', 'zh-MO': '要確認的寫卡操作不存在或已過期：請重新開始' },
  [codes.cardAlreadyRegistered]: { 'en-US': 'This card is already registered in the system: use a blank card', 'zh-CN': '此卡已在系统中登记：请使用空白卡', 'zh-MO': '此卡已在系統中登記：請使用空白卡' },
  [codes.cardNotValid]: { 'en-US': 'This card is not valid for this system: it belongs to another system, or it was changed or copied', 'zh-CN': '此卡对本系统无效：属于其他系统，或已被修改或复制', 'zh-MO': '此卡對本系統無效：屬於其他系統，或已被修改或複製' },
  [codes.cardOutdated]: { 'en-US': 'This card holds an older issue: the card was issued again since, use the newest one', 'zh-CN': '此卡内容已过时：该卡已重新发行，请使用最新的卡', 'zh-MO': '此卡內容已過時：該卡已重新發行，請使用最新的卡' },
  [codes.cardLost]: { 'en-US': 'This card is reported lost', 'zh-CN': '此卡已挂失', 'zh-MO': '此卡已掛失' },
  [codes.cardFrozen]: { 'en-US': 'This card is frozen', 'zh-CN': '此卡已冻结', 'zh-MO': '此卡已凍結' },
  [codes.cardNotInUse]: { 'en-US': 'This card is not in use (recycled or damaged)', 'zh-CN': '此卡未在使用中（已回收或已损坏）', 'zh-MO': '此卡未在使用中（已回收或已損壞）' },
  [codes.cardUnknown]: { 'en-US': 'This card was not issued by this system', 'zh-CN': '此卡不是本系统发行的', 'zh-MO': '此卡不是本系統發行的' },
  [codes.readerNotTrusted]: { 'en-US': 'This card reader is not trusted yet: read the system key card on it with the customer password (or swipe the mother card while the set-up is unfinished)', 'zh-CN': '此读卡器尚未受信任：请在其上读取系统密钥卡并输入客户密码（设置未完成时可刷母卡）', 'zh-MO': '此讀卡器尚未受信任：請在其上讀取系統密鑰卡並輸入客戶密碼（設定未完成時可刷母卡）' },
  [codes.cardOtherOperator]: { 'en-US': 'This card belongs to another operator', 'zh-CN': '此卡属于其他操作员', 'zh-MO': '此卡屬於其他操作員' },
  [codes.notCardLogin]: { 'en-US': 'Only for administrators signed in with their login card', 'zh-CN': '仅限使用登录卡登录的管理员', 'zh-MO': '僅限使用登入卡登入的管理員' },
  [codes.superAdminMissing]: { 'en-US': 'There is no system administrator to issue the card to', 'zh-CN': '没有可发卡的系统管理员', 'zh-MO': '沒有可發卡的系統管理員' },
  [codes.cardActionNotAllowed]: { 'en-US': 'Card {fixedNo} is {state}: this action is not allowed for it (nothing was changed)', 'zh-CN': '卡片 {fixedNo} 状态为{state}：不允许此操作（未作任何更改）', 'zh-MO': '卡片 {fixedNo} 狀態為{state}：不允許此操作（未作任何更改）' },
  [codes.cardAlreadyExists]: { 'en-US': 'Card already exists: {holder} already holds a card in use', 'zh-CN': '卡片已存在：{holder}已有使用中的卡', 'zh-MO': '卡片已存在：{holder}已有使用中的卡' },
  [codes.keyCardCannotRecover]: { 'en-US': 'This key card cannot recover the system', 'zh-CN': '此密钥卡无法恢复系统', 'zh-MO': '此密鑰卡無法恢復系統' },
  [codes.operatorCannotHoldCard]: { 'en-US': 'Only an enabled system administrator of this tenant can hold an administrator login card', 'zh-CN': '只有本租户已启用的系统管理员才能持有管理员登录卡', 'zh-MO': '只有本租戶已啟用的系統管理員才能持有管理員登入卡' },
  [codes.lastAdminCardInUse]: { 'en-US': 'Card {fixedNo} is the last administrator card in use: put another administrator card in use first (nothing was changed)', 'zh-CN': '卡片 {fixedNo} 是最后一张使用中的管理员卡：请先让另一张管理员卡投入使用（未作任何更改）', 'zh-MO': '卡片 {fixedNo} 是最後一張使用中的管理員卡：請先讓另一張管理員卡投入使用（未作任何更改）' },
  [codes.customerPasswordRequired]: { 'en-US': 'After the set-up the mother card needs the customer password: type it, then swipe again', 'zh-CN': '系统设置完成后，刷母卡需要输入客户密码：请输入后再刷卡', 'zh-MO': '系統設定完成後，刷母卡需要輸入客戶密碼：請輸入後再刷卡' },
  [codes.customerPasswordWeak]: { 'en-US': 'This customer password is one of the most common ones and is refused: ask the vendor for a mother card with a stronger customer password', 'zh-CN': '该客户密码属于最常见的密码，不予接受：请向供应商索取客户密码更强的母卡', 'zh-MO': '該客戶密碼屬於最常見的密碼，不予接受：請向供應商索取客戶密碼更強的母卡' },
  [codes.keyCardTrustLocked]: { 'en-US': 'Too many wrong customer passwords: try again after {time}', 'zh-CN': '客户密码错误次数过多：请于 {time} 之后再试', 'zh-MO': '客戶密碼錯誤次數過多：請於 {time} 之後再試' },
  [codes.cardPasswordRequired]: { 'en-US': 'This tenant signs in with the administrator card and its card password: enter the card password with the card', 'zh-CN': '本租户的管理员卡登录需要卡密码：请在刷卡时输入卡密码', 'zh-MO': '本租戶的管理員卡登入需要卡密碼：請在刷卡時輸入卡密碼' },
  [codes.notTheSelectedCard]: { 'en-US': 'The card on the reader ({fixedNo}) is not the selected card: place that card on the reader', 'zh-CN': '读卡器上的卡片（{fixedNo}）不是所选的卡：请放上所选的卡', 'zh-MO': '讀卡器上的卡片（{fixedNo}）不是所選的卡：請放上所選的卡' },
  [codes.subAppCodeTaken]: { 'en-US': 'The system code {appNo} is already used by {name}: choose another code, or replace the registration', 'zh-CN': '系统编码 {appNo} 已被{name}使用：请换一个编码，或替换原有登记', 'zh-MO': '系統編碼 {appNo} 已被{name}使用：請換一個編碼，或替換原有登記' },
  [codes.subAppBasePathTaken]: { 'en-US': 'The base path /{basePath}/ overlaps the one of {name}', 'zh-CN': '基础路径 /{basePath}/ 与{name}的路径重叠', 'zh-MO': '基礎路徑 /{basePath}/ 與{name}的路徑重疊' },
  [codes.subAppBasePathReserved]: { 'en-US': 'The base path /{basePath}/ is reserved for the shell and the server', 'zh-CN': '基础路径 /{basePath}/ 已保留给主框架和服务器使用', 'zh-MO': '基礎路徑 /{basePath}/ 已保留給主框架和伺服器使用' },
  [codes.subAppEntryInvalid]: { 'en-US': 'The entry {entry} must be a path on this server ("/…/") or an http(s) address, ending in "/", without user name, password, query or fragment', 'zh-CN': '入口 {entry} 必须是本服务器上的路径（"/…/"）或 http(s) 地址，以 "/" 结尾，且不含用户名、密码、查询参数或片段', 'zh-MO': '入口 {entry} 必須是本伺服器上的路徑（"/…/"）或 http(s) 位址，以 "/" 結尾，且不含用戶名、密碼、查詢參數或片段' },
  [codes.subAppOriginInvalid]: { 'en-US': 'The script origin {origin} must be an origin only, such as https://cdn.example.com or http://127.0.0.1:8080', 'zh-CN': '脚本来源 {origin} 只能是源地址，例如 https://cdn.example.com 或 http://127.0.0.1:8080', 'zh-MO': '腳本來源 {origin} 只能是源位址，例如 https://cdn.example.com 或 http://127.0.0.1:8080' },
  [codes.subAppPageIdTaken]: { 'en-US': 'The menu page id {id} is already used', 'zh-CN': '菜单页面标识 {id} 已被使用', 'zh-MO': '選單頁面標識 {id} 已被使用' },
  [codes.subAppPagePathOutside]: { 'en-US': 'Menu page {id}: its path {path} is not under /{basePath}/', 'zh-CN': '菜单页面 {id}：路径 {path} 不在 /{basePath}/ 之下', 'zh-MO': '選單頁面 {id}：路徑 {path} 不在 /{basePath}/ 之下' },
  [codes.subAppPageParentInvalid]: { 'en-US': 'Menu page {id}: its parent {parentId} is not an earlier group (a page without a path) of this sub-system', 'zh-CN': '菜单页面 {id}：上级 {parentId} 不是本子系统中排在前面的分组（无路径的页面）', 'zh-MO': '選單頁面 {id}：上級 {parentId} 不是本子系統中排在前面的分組（無路徑的頁面）' },
  [codes.subAppPageTooDeep]: { 'en-US': 'Menu page {id}: menus have at most three levels', 'zh-CN': '菜单页面 {id}：菜单最多三级', 'zh-MO': '選單頁面 {id}：選單最多三級' },
  [codes.subAppFunctionCodeUnknown]: { 'en-US': 'Function code {code} is not one of the sub-system\'s function codes', 'zh-CN': '功能编码 {code} 不属于该子系统的功能编码', 'zh-MO': '功能編碼 {code} 不屬於該子系統的功能編碼' },
  [codes.subAppBuiltIn]: { 'en-US': '{appNo} is a built-in system: it cannot be registered, replaced or removed', 'zh-CN': '{appNo} 是内置系统：不能登记、替换或删除', 'zh-MO': '{appNo} 是內置系統：不能登記、替換或刪除' },
  [codes.subAppCodeInvalid]: { 'en-US': 'The system code "{appNo}" is not valid: 2 to 16 lowercase letters and digits, starting with a letter (such as porders)', 'zh-CN': '系统编码 "{appNo}" 无效：须为 2 至 16 个小写字母和数字，并以字母开头（例如 porders）', 'zh-MO': '系統編碼 "{appNo}" 無效：須為 2 至 16 個小寫字母和數字，並以字母開頭（例如 porders）' },
  [codes.subAppNotRegistered]: { 'en-US': 'No registered sub-system has the code {appNo}', 'zh-CN': '没有编码为 {appNo} 的已登记子系统', 'zh-MO': '沒有編碼為 {appNo} 的已登記子系統' },
  [codes.accountUnknown]: { 'en-US': 'Tenant {tenantCode} has no account {account}', 'zh-CN': '租户 {tenantCode} 中没有账号 {account}', 'zh-MO': '租戶 {tenantCode} 中沒有帳號 {account}' },
  [codes.subAppOriginWildcard]: { 'en-US': 'The {field} {origin} holds a wildcard: name each origin exactly, such as https://cdn.example.com', 'zh-CN': '{field} {origin} 含有通配符：请逐一写明确切的源地址，例如 https://cdn.example.com', 'zh-MO': '{field} {origin} 含有萬用字元：請逐一寫明確切的源位址，例如 https://cdn.example.com' },
  [codes.subAppOriginPlainHttp]: { 'en-US': 'The {field} {origin} uses http:// on a host that is neither loopback nor listed in SUBAPP_HTTP_HOSTS: use https://', 'zh-CN': '{field} {origin} 在既非本机回环、也未列入 SUBAPP_HTTP_HOSTS 的主机上使用 http://：请改用 https://', 'zh-MO': '{field} {origin} 在既非本機迴環、也未列入 SUBAPP_HTTP_HOSTS 的主機上使用 http://：請改用 https://' },
  [codes.subAppPathNotPlain]: { 'en-US': 'The {field} {path} must be written plainly: without "." or ".." segments (percent-encoded or not), escapes of escapes or broken percent-escapes', 'zh-CN': '{field} {path} 必须以规范形式书写：不得含 "." 或 ".." 路径段（无论是否经百分号编码）、二次编码或损坏的百分号编码', 'zh-MO': '{field} {path} 必須以規範形式書寫：不得含 "." 或 ".." 路徑段（無論是否經百分號編碼）、二次編碼或損壞的百分號編碼' },
  [codes.displayTextInvalid]: { 'en-US': 'The {field} holds {character}: names may not hold control characters, invisible formatting characters (such as U+202E) or "<" and ">"', 'zh-CN': '{field} 含有 {character}：名称不得含控制字符、不可见的格式字符（如 U+202E）或 "<"、">"', 'zh-MO': '{field} 含有 {character}：名稱不得含控制字元、不可見的格式字元（如 U+202E）或 "<"、">"' },
  [codes.subAppPathClimbsOut]: { 'en-US': 'The {field} {path} climbs above "/" with its ".." segments', 'zh-CN': '{field} {path} 通过 ".." 路径段越出了 "/"', 'zh-MO': '{field} {path} 透過 ".." 路徑段越出了 "/"' },
  [codes.issuerTrustExpired]: { 'en-US': "This card reader's trust has expired: read the system key card on it again with the customer password (or swipe the mother card while the set-up is unfinished)", 'zh-CN': '此读卡器的信任已过期：请在其上再次读取系统密钥卡并输入客户密码（设置未完成时可刷母卡）', 'zh-MO': '此讀卡器的信任已過期：請在其上再次讀取系統密鑰卡並輸入客戶密碼（設定未完成時可刷母卡）' },
  [codes.issuerTrustRevoked]: { 'en-US': 'A system administrator revoked this card reader: read the system key card on it with the customer password to trust it with a new device key', 'zh-CN': '系统管理员已撤销此读卡器：请在其上读取系统密钥卡并输入客户密码，以新的设备密钥重新信任它', 'zh-MO': '系統管理員已撤銷此讀卡器：請在其上讀取系統密鑰卡並輸入客戶密碼，以新的裝置密鑰重新信任它' },
  [codes.issuerChallengeInvalid]: { 'en-US': "The card reader did not prove it holds its device key (the challenge is missing, used, expired or wrongly signed): try again", 'zh-CN': '读卡器未能证明其持有设备密钥（挑战缺失、已使用、已过期或签名错误）：请重试', 'zh-MO': '讀卡器未能證明其持有裝置密鑰（挑戰缺失、已使用、已過期或簽名錯誤）：請重試' },
  [codes.issuerKeyFetchTooOften]: { 'en-US': 'Too many system key requests from this card reader or address: try again in a minute', 'zh-CN': '此读卡器或地址请求系统密钥过于频繁：请一分钟后再试', 'zh-MO': '此讀卡器或地址請求系統密鑰過於頻繁：請一分鐘後再試' },
  [codes.trustedIssuerUnknown]: { 'en-US': 'No trusted card reader has the device id {deviceId}', 'zh-CN': '没有设备编号为 {deviceId} 的受信任读卡器', 'zh-MO': '沒有裝置編號為 {deviceId} 的受信任讀卡器' },
  [codes.installationAdminRequired]: { 'en-US': 'This changes what the whole installation serves: only an installation administrator may do it (the operator marks one on the server)', 'zh-CN': '此操作会改变整个安装为所有租户提供的内容：只有安装管理员可以执行（由运维人员在服务器上指定）', 'zh-MO': '此操作會改變整個安裝為所有租戶提供的內容：只有安裝管理員可以執行（由運維人員在伺服器上指定）' },
  [codes.grantOutsideTenant]: { 'en-US': 'You may grant or revoke only within your own tenant ({own}), not in tenant {tenantCode}', 'zh-CN': '只能在本租户（{own}）内授予或撤销，不能在租户 {tenantCode} 中操作', 'zh-MO': '只能在本租戶（{own}）內授予或撤銷，不能在租戶 {tenantCode} 中操作' },
  [codes.storageFull]: { 'en-US': "The server's storage is full, so nothing could be saved: please tell the administrator", 'zh-CN': '服务器存储空间已满，未能保存：请通知管理员', 'zh-MO': '伺服器儲存空間已滿，未能儲存：請通知管理員' },
  [codes.serviceUnavailable]: { 'en-US': 'The service is unavailable for a moment (the database cannot be reached): please try again shortly', 'zh-CN': '服务暂时不可用（无法连接数据库），请稍后再试', 'zh-MO': '服務暫時無法使用（無法連接資料庫），請稍後再試' },
  [codes.internalError]: { 'en-US': 'Internal server error!', 'zh-CN': '服务器内部错误！', 'zh-MO': '伺服器內部錯誤！' },
};

/** What fills a message's `{name}` placeholder: the same text in every language, or a text per language. */
export type MessageValue = string | Localised;

const placeholderPattern = /\{(\w+)\}/g;

/** The localised message of a code, with `{name}` placeholders filled in. */
export function codeMessage(code: BusinessCode, language: LanguageCode, values: Record<string, MessageValue> = {}): string {
  const template = codeMessages[code][language];
  return template.replace(placeholderPattern, (whole, name: string) => {
    const value = values[name];
    return value === undefined ? whole : typeof value === 'string' ? value : value[language];
  });
}

/** The names of the `{name}` placeholders of a code's message (the same in every language). */
export function messagePlaceholders(code: BusinessCode, language: LanguageCode = 'en-US'): string[] {
  return [...new Set([...codeMessages[code][language].matchAll(placeholderPattern)].map((match) => match[1]!))];
}

/** The placeholders of a code's message that `values` leaves unfilled (a message must never be sent with one). */
export function unfilledPlaceholders(code: BusinessCode, values: Record<string, MessageValue>): string[] {
  return messagePlaceholders(code).filter((name) => values[name] === undefined);
}
