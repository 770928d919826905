// The card issuer's reader panel (docs/operator-pc.md): the virtual reader's cards, or the
// PC/SC readers. A plain module, same origin as the issuer's panel API.
import { panelLanguage } from './panel-language.js';

const texts = {
  'en-US': {
    title: 'Card reader', virtualTitle: 'Virtual card reader', language: 'Language', intro: "The card issuer's simulated reader: put a card on it, take it off, make new cards, and make the next read or write fail to see how the shell copes.",
    onReader: 'On the reader', remove: 'Take the card off', blank: 'New blank card on the reader', cards: 'Cards', fixedNo: 'Fixed number', kind: 'Kind', action: 'Action',
    place: 'Put on the reader', failTitle: 'Make the next operation fail', operation: 'Operation', read: 'read', write: 'write', code: 'Reader code', times: 'Times', failButton: 'Set',
    empty: 'No card on the reader.', holding: 'Card {fixedNo} ({kind}) is on the reader.', noCards: 'No cards yet.', pending: 'Pending: {list}.', noFaults: 'No failure pending.', failed: 'The reader did not answer: is the card issuer running?',
    blankKind: 'blank', mother: 'mother card', systemKey: 'system key card', adminLogin: 'administrator login card', unknown: 'unknown card',
    pcscIntro: "The card readers the card issuer finds through the PC/SC service (pcscd). Place a card on the reader it uses; the shell's card screens read and write it there.",
    readers: 'PC/SC card readers', readerName: 'Reader', used: 'In use', yes: 'yes', card: 'Card', atr: 'ATR', present: 'present', absent: 'no card', mute: 'not answering', notRead: 'not read yet', noReaders: 'No card reader found.',
    noReader: 'No card reader is in use.', unread: 'A card is on the reader; the card issuer has not read it yet: Read the card shows its fixed number.', muteCard: 'The card on the reader does not answer: take it off and place it again.',
    readCard: 'Read the card', version: 'Card issuer {version}',
    pcscIntroWindows: "The card readers the card issuer finds through the Windows smart-card service (Smart Card). Place a card on the reader it uses; the shell's card screens read and write it there.",
    howTitle: 'How to use a real reader',
    how: 'Install the PC/SC service (sudo apt-get install pcscd) and plug the reader in. Start the card issuer with CARD_READER=pcsc, and with CARD_READER_NAME set to the name of the reader (or its start) when it should not use the first one. A card needs a transparent file CARD_FILE_ID (default 0101) of at least 544 bytes: the command card pcsc-format (npm run card -- pcsc-format in a source checkout) makes it on a blank card. The guide for the operator PC is on the Tools page of the campus server.',
    howWindows: 'Plug the reader in: Windows installs a CCID reader by itself and starts its Smart Card service. Start the card issuer with CARD_READER=pcsc, and with CARD_READER_NAME set to the name of the reader (or its start) when it should not use the first one. A card needs a transparent file CARD_FILE_ID (default 0101) of at least 544 bytes: the command card pcsc-format makes it on a blank card. The guide for the operator PC is on the Tools page of the campus server.',
  },
  'zh-CN': {
    title: '读卡器', virtualTitle: '虚拟读卡器', language: '语言', intro: '发卡器的模拟读卡器：放上卡片、取下卡片、制作新卡，并让下一次读或写失败，以查看系统如何处理。',
    onReader: '读卡器上', remove: '取下卡片', blank: '放上一张新的空白卡', cards: '卡片', fixedNo: '卡片固定号', kind: '类型', action: '操作',
    place: '放到读卡器上', failTitle: '让下一次操作失败', operation: '操作', read: '读', write: '写', code: '读卡器代码', times: '次数', failButton: '设置',
    empty: '读卡器上没有卡片。', holding: '卡片 {fixedNo}（{kind}）在读卡器上。', noCards: '还没有卡片。', pending: '待发生：{list}。', noFaults: '没有待发生的失败。', failed: '读卡器没有响应：发卡器是否正在运行？',
    blankKind: '空白卡', mother: '母卡', systemKey: '系统密钥卡', adminLogin: '管理员登录卡', unknown: '未知卡片',
    pcscIntro: '发卡器通过 PC/SC 服务（pcscd）找到的读卡器。请将卡片放在发卡器使用的读卡器上，系统的卡片页面会在那里读写卡片。',
    readers: 'PC/SC 读卡器', readerName: '读卡器', used: '使用中', yes: '是', card: '卡片', atr: 'ATR', present: '有卡', absent: '无卡', mute: '无响应', notRead: '尚未读取', noReaders: '没有找到读卡器。',
    noReader: '没有正在使用的读卡器。', unread: '读卡器上有卡片，发卡器尚未读取：点击“读取卡片”可显示其固定号。', muteCard: '读卡器上的卡片没有响应：请取下后重新放上。',
    readCard: '读取卡片', version: '发卡器 {version}',
    pcscIntroWindows: '发卡器通过 Windows 智能卡服务（Smart Card）找到的读卡器。请将卡片放在发卡器使用的读卡器上，系统的卡片页面会在那里读写卡片。',
    howTitle: '如何使用真实读卡器',
    how: '安装 PC/SC 服务（sudo apt-get install pcscd）并连接读卡器。以 CARD_READER=pcsc 启动发卡器；如不应使用第一个读卡器，请将 CARD_READER_NAME 设为读卡器的名称（或其开头部分）。卡片需要一个至少 544 字节的透明文件 CARD_FILE_ID（默认 0101）：命令 card pcsc-format（在源代码目录中为 npm run card -- pcsc-format）会在空白卡上创建它。操作员电脑的使用指南在园区服务器的工具页面上。',
    howWindows: '连接读卡器：Windows 会自动安装 CCID 读卡器并启动其智能卡服务（Smart Card）。以 CARD_READER=pcsc 启动发卡器；如不应使用第一个读卡器，请将 CARD_READER_NAME 设为读卡器的名称（或其开头部分）。卡片需要一个至少 544 字节的透明文件 CARD_FILE_ID（默认 0101）：命令 card pcsc-format 会在空白卡上创建它。操作员电脑的使用指南在园区服务器的工具页面上。',
  },
  'zh-MO': {
    title: '讀卡器', virtualTitle: '虛擬讀卡器', language: '語言', intro: '發卡器的模擬讀卡器：放上卡片、取下卡片、製作新卡，並讓下一次讀或寫失敗，以查看系統如何處理。',
    onReader: '讀卡器上', remove: '取下卡片', blank: '放上一張新的空白卡', cards: '卡片', fixedNo: '卡片固定號', kind: '類型', action: '操作',
    place: '放到讀卡器上', failTitle: '讓下一次操作失敗', operation: '操作', read: '讀', write: '寫', code: '讀卡器代碼', times: '次數', failButton: '設定',
    empty: '讀卡器上沒有卡片。', holding: '卡片 {fixedNo}（{kind}）在讀卡器上。', noCards: '還沒有卡片。', pending: '待發生：{list}。', noFaults: '沒有待發生的失敗。', failed: '讀卡器沒有回應：發卡器是否正在執行？',
    blankKind: '空白卡', mother: '母卡', systemKey: '系統密鑰卡', adminLogin: '管理員登入卡', unknown: '未知卡片',
    pcscIntro: '發卡器透過 PC/SC 服務（pcscd）找到的讀卡器。請將卡片放在發卡器使用的讀卡器上，系統的卡片頁面會在那裡讀寫卡片。',
    readers: 'PC/SC 讀卡器', readerName: '讀卡器', used: '使用中', yes: '是', card: '卡片', atr: 'ATR', present: '有卡', absent: '無卡', mute: '無回應', notRead: '尚未讀取', noReaders: '沒有找到讀卡器。',
    noReader: '沒有正在使用的讀卡器。', unread: '讀卡器上有卡片，發卡器尚未讀取：按「讀取卡片」可顯示其固定號。', muteCard: '讀卡器上的卡片沒有回應：請取下後重新放上。',
    readCard: '讀取卡片', version: '發卡器 {version}',
    pcscIntroWindows: '發卡器透過 Windows 智能卡服務（Smart Card）找到的讀卡器。請將卡片放在發卡器使用的讀卡器上，系統的卡片頁面會在那裡讀寫卡片。',
    howTitle: '如何使用真實讀卡器',
    how: '安裝 PC/SC 服務（sudo apt-get install pcscd）並連接讀卡器。以 CARD_READER=pcsc 啟動發卡器；如不應使用第一個讀卡器，請將 CARD_READER_NAME 設為讀卡器的名稱（或其開頭部分）。卡片需要一個至少 544 位元組的透明檔案 CARD_FILE_ID（預設 0101）：命令 card pcsc-format（在原始碼目錄中為 npm run card -- pcsc-format）會在空白卡上建立它。操作員電腦的使用指南在園區伺服器的工具頁面上。',
    howWindows: '連接讀卡器：Windows 會自動安裝 CCID 讀卡器並啟動其智能卡服務（Smart Card）。以 CARD_READER=pcsc 啟動發卡器；如不應使用第一個讀卡器，請將 CARD_READER_NAME 設為讀卡器的名稱（或其開頭部分）。卡片需要一個至少 544 位元組的透明檔案 CARD_FILE_ID（預設 0101）：命令 card pcsc-format 會在空白卡上建立它。操作員電腦的使用指南在園區伺服器的工具頁面上。',
  },
};

// the operator's own choice, else the PC's languages in their order
const chosen = localStorage.getItem('reader-panel-language');
let language = texts[chosen] ? chosen : panelLanguage(navigator.languages?.length ? navigator.languages : [navigator.language]);
let latest = null;

const t = (key, values = {}) => (texts[language][key] ?? key).replace(/\{(\w+)\}/g, (_, name) => values[name] ?? '');
const kindText = (kind) => t(kind === 'blank' ? 'blankKind' : kind);
const cardText = { present: 'present', empty: 'absent', mute: 'mute' };

// a live region given the same words again on every refresh would read them out again
function say(id, text) {
  const element = document.getElementById(id);
  if (element.textContent !== text) element.textContent = text;
}

async function api(path, body) {
  const headers = { language };
  const res = await fetch(`/reader/api/${path}`, body === undefined ? { headers } : { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const envelope = await res.json();
  if (envelope.code !== 0) throw new Error(envelope.msg);
  return envelope.data;
}

function noRows(body, columns, text) {
  const cell = body.insertRow().insertCell();
  cell.colSpan = columns;
  cell.textContent = text;
}

function renderVirtual() {
  const onReader = latest.cards.find((card) => card.onReader);
  say('reader-state', onReader ? t('holding', { fixedNo: onReader.fixedNo, kind: kindText(onReader.kind) }) : t('empty'));
  document.getElementById('remove').disabled = !onReader;
  const body = document.getElementById('cards');
  body.replaceChildren();
  if (latest.cards.length === 0) noRows(body, 3, t('noCards'));
  for (const card of latest.cards) {
    const row = body.insertRow();
    if (card.onReader) row.className = 'on-reader';
    row.insertCell().textContent = card.fixedNo;
    row.insertCell().textContent = kindText(card.kind);
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = t('place');
    button.disabled = card.onReader;
    button.setAttribute('aria-label', `${t('place')}: ${card.fixedNo}`);
    button.addEventListener('click', () => act(() => api('place', { fixedNo: card.fixedNo })));
    row.insertCell().append(button);
  }
  say('faults', latest.faults.length ? t('pending', { list: latest.faults.map((f) => `${t(f.op)} ${f.code} × ${f.remaining}`).join(', ') }) : t('noFaults'));
}

function renderPcsc() {
  const used = latest.readers.find((reader) => reader.used);
  say(
    'reader-state',
    !used ? t('noReader')
      : used.card === 'empty' ? t('empty')
        : used.card === 'mute' ? t('muteCard')
          : used.known ? t('holding', { fixedNo: used.known.fixedNo, kind: kindText(used.known.kind) })
            : t('unread'),
  );
  document.getElementById('read').disabled = !used || used.card !== 'present';
  const body = document.getElementById('readers');
  body.replaceChildren();
  if (latest.readers.length === 0) noRows(body, 6, t('noReaders'));
  for (const reader of latest.readers) {
    const row = body.insertRow();
    if (reader.used) row.className = 'on-reader';
    row.insertCell().textContent = reader.name;
    row.insertCell().textContent = reader.used ? t('yes') : '';
    row.insertCell().textContent = t(cardText[reader.card]);
    const atr = row.insertCell();
    atr.className = 'hex';
    atr.textContent = reader.atr ?? '';
    row.insertCell().textContent = reader.known ? reader.known.fixedNo : reader.card === 'present' ? t('notRead') : '';
    row.insertCell().textContent = reader.known ? kindText(reader.known.kind) : '';
  }
}

function render() {
  const driver = latest?.driver;
  const windows = latest?.platform === 'win32';
  document.getElementById('pcsc-intro').dataset.text = windows ? 'pcscIntroWindows' : 'pcscIntro';
  document.getElementById('pcsc-how').dataset.text = windows ? 'howWindows' : 'how';
  document.documentElement.lang = language;
  document.getElementById('title').dataset.text = driver === 'virtual' ? 'virtualTitle' : 'title';
  document.title = t(document.getElementById('title').dataset.text);
  document.getElementById('language').value = language;
  for (const element of document.querySelectorAll('[data-text]')) element.textContent = t(element.dataset.text);
  for (const element of document.querySelectorAll('[data-driver]')) element.hidden = element.dataset.driver !== driver;
  say('version', latest?.version ? t('version', { version: latest.version }) : '');
  if (driver === 'virtual') renderVirtual();
  if (driver === 'pcsc') renderPcsc();
}

// what the operator's last action answered, if it failed: shown until the next action
let actionError = '';

async function refresh() {
  try {
    latest = await api('status');
    say('error', latest.problem ?? actionError);
  } catch {
    say('error', t('failed'));
  }
  render();
}

async function act(work) {
  try {
    await work();
    actionError = '';
  } catch (error) {
    actionError = error.message;
  }
  await refresh();
}

document.getElementById('language').addEventListener('change', (event) => {
  language = event.target.value;
  localStorage.setItem('reader-panel-language', language);
  render();
  refresh(); // the reader's problem comes in the language asked for
});
document.getElementById('remove').addEventListener('click', () => act(() => api('remove', {})));
document.getElementById('blank').addEventListener('click', () => act(() => api('blank', { place: true })));
document.getElementById('read').addEventListener('click', () => act(() => api('read', {})));
document.getElementById('fail').addEventListener('submit', (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  act(() => api('fail', { op: form.get('op'), code: Number(form.get('code')), times: Number(form.get('times')) }));
});
render();
refresh();
setInterval(refresh, 2000);
