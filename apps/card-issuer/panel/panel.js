// The virtual reader's panel (README "Card issuer"): plain script, same origin as the issuer's test API.
const texts = {
  'en-US': {
    title: 'Virtual card reader', language: 'Language', intro: "The card issuer's simulated reader: put a card on it, take it off, make new cards, and make the next read or write fail to see how the shell copes.",
    onReader: 'On the reader', remove: 'Take the card off', blank: 'New blank card on the reader', cards: 'Cards', fixedNo: 'Fixed number', kind: 'Kind', action: 'Action',
    place: 'Put on the reader', failTitle: 'Make the next operation fail', operation: 'Operation', read: 'read', write: 'write', code: 'Reader code', times: 'Times', failButton: 'Set',
    empty: 'No card on the reader.', holding: 'Card {fixedNo} ({kind}) is on the reader.', noCards: 'No cards yet.', pending: 'Pending: {list}.', noFaults: 'No failure pending.', failed: 'The reader did not answer: is the card issuer running?',
    blankKind: 'blank', mother: 'mother card', systemKey: 'system key card', adminLogin: 'administrator login card', unknown: 'unknown card',
  },
  'zh-CN': {
    title: '虚拟读卡器', language: '语言', intro: '发卡器的模拟读卡器：放上卡片、取下卡片、制作新卡，并让下一次读或写失败，以查看系统如何处理。',
    onReader: '读卡器上', remove: '取下卡片', blank: '放上一张新的空白卡', cards: '卡片', fixedNo: '卡片固定号', kind: '类型', action: '操作',
    place: '放到读卡器上', failTitle: '让下一次操作失败', operation: '操作', read: '读', write: '写', code: '读卡器代码', times: '次数', failButton: '设置',
    empty: '读卡器上没有卡片。', holding: '卡片 {fixedNo}（{kind}）在读卡器上。', noCards: '还没有卡片。', pending: '待发生：{list}。', noFaults: '没有待发生的失败。', failed: '读卡器没有响应：发卡器是否正在运行？',
    blankKind: '空白卡', mother: '母卡', systemKey: '系统密钥卡', adminLogin: '管理员登录卡', unknown: '未知卡片',
  },
  'zh-MO': {
    title: '虛擬讀卡器', language: '語言', intro: '發卡器的模擬讀卡器：放上卡片、取下卡片、製作新卡，並讓下一次讀或寫失敗，以查看系統如何處理。',
    onReader: '讀卡器上', remove: '取下卡片', blank: '放上一張新的空白卡', cards: '卡片', fixedNo: '卡片固定號', kind: '類型', action: '操作',
    place: '放到讀卡器上', failTitle: '讓下一次操作失敗', operation: '操作', read: '讀', write: '寫', code: '讀卡器代碼', times: '次數', failButton: '設定',
    empty: '讀卡器上沒有卡片。', holding: '卡片 {fixedNo}（{kind}）在讀卡器上。', noCards: '還沒有卡片。', pending: '待發生：{list}。', noFaults: '沒有待發生的失敗。', failed: '讀卡器沒有回應：發卡器是否正在執行？',
    blankKind: '空白卡', mother: '母卡', systemKey: '系統密鑰卡', adminLogin: '管理員登入卡', unknown: '未知卡片',
  },
};

let language = localStorage.getItem('reader-panel-language') || (navigator.language.startsWith('zh') ? (/TW|HK|MO|Hant/i.test(navigator.language) ? 'zh-MO' : 'zh-CN') : 'en-US');
if (!texts[language]) language = 'en-US';
let latest = null;

const t = (key, values = {}) => (texts[language][key] ?? key).replace(/\{(\w+)\}/g, (_, name) => values[name] ?? '');
const kindText = (kind) => t(kind === 'blank' ? 'blankKind' : kind);

async function api(path, body) {
  const res = await fetch(`/reader/api/${path}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const envelope = await res.json();
  if (envelope.code !== 0) throw new Error(envelope.msg);
  return envelope.data;
}

function render() {
  document.documentElement.lang = language;
  document.title = t('title');
  document.getElementById('language').value = language;
  for (const element of document.querySelectorAll('[data-text]')) element.textContent = t(element.dataset.text);
  if (!latest) return;
  const onReader = latest.cards.find((card) => card.onReader);
  document.getElementById('reader-state').textContent = onReader ? t('holding', { fixedNo: onReader.fixedNo, kind: kindText(onReader.kind) }) : t('empty');
  document.getElementById('remove').disabled = !onReader;
  const body = document.getElementById('cards');
  body.replaceChildren();
  if (latest.cards.length === 0) {
    const row = body.insertRow();
    const cell = row.insertCell();
    cell.colSpan = 3;
    cell.textContent = t('noCards');
  }
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
  document.getElementById('faults').textContent = latest.faults.length
    ? t('pending', { list: latest.faults.map((f) => `${t(f.op)} ${f.code} × ${f.remaining}`).join(', ') })
    : t('noFaults');
}

async function refresh() {
  try {
    latest = await api('status');
    document.getElementById('error').textContent = '';
  } catch {
    document.getElementById('error').textContent = t('failed');
  }
  render();
}

async function act(work) {
  try {
    await work();
  } catch (error) {
    document.getElementById('error').textContent = error.message;
  }
  await refresh();
}

document.getElementById('language').addEventListener('change', (event) => {
  language = event.target.value;
  localStorage.setItem('reader-panel-language', language);
  render();
});
document.getElementById('remove').addEventListener('click', () => act(() => api('remove', {})));
document.getElementById('blank').addEventListener('click', () => act(() => api('blank', { place: true })));
document.getElementById('fail').addEventListener('submit', (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  act(() => api('fail', { op: form.get('op'), code: Number(form.get('code')), times: Number(form.get('times')) }));
});
render();
refresh();
setInterval(refresh, 2000);
