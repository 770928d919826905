// The reader panel's language: the first of the PC's browser languages (navigator.languages) the panel has texts
// for, matched as the shell matches them (apps/shell/src/lib/browser-language.ts): Traditional Chinese (Hant, TW,
// HK, MO) is zh-MO, other Chinese zh-CN, any English en-US. A PC whose languages are none of these gets en-US.
export function panelLanguage(preferred) {
  for (const tag of preferred ?? []) {
    const lower = String(tag).toLowerCase();
    if (lower === 'en' || lower.startsWith('en-')) return 'en-US';
    if (lower === 'zh' || lower.startsWith('zh-')) return /^zh-(hant|tw|hk|mo)\b/.test(lower) ? 'zh-MO' : 'zh-CN';
  }
  return 'en-US';
}
