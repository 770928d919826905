import type { FastifyRequest } from 'fastify';
import type { LanguageCode } from '@campus/contracts';

/** One tag of Accept-Language as the shell's language, or null for a language the shell does not speak. */
function shellLanguageOf(tag: string): LanguageCode | null {
  const t = tag.trim().toLowerCase();
  if (t === 'en' || t.startsWith('en-')) return 'en-US';
  if (t === 'zh-mo' || t === 'zh-hk' || t === 'zh-tw' || t.startsWith('zh-hant')) return 'zh-MO';
  if (t === 'zh' || t.startsWith('zh-')) return 'zh-CN';
  return null;
}

/**
 * The language of a page the browser navigates to on its own (a provider's redirect back to a callback): such a
 * request carries no `language` header as the shell's calls do, so the browser's Accept-Language decides, in its
 * order of preference, before the default.
 */
export function browserLanguage(request: FastifyRequest): LanguageCode {
  if (request.headers.language !== undefined) return request.lang;
  const header = request.headers['accept-language'];
  const tags = (typeof header === 'string' ? header : '')
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag, weight: q === undefined ? 1 : Number(q.slice(2)) || 0 };
    })
    .filter((entry) => entry.weight > 0)
    .sort((a, b) => b.weight - a.weight);
  for (const { tag } of tags) {
    const language = shellLanguageOf(tag);
    if (language) return language;
  }
  return request.lang;
}
