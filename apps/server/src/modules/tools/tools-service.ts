import fs from 'node:fs';
import path from 'node:path';
import { fallbackLanguage, languageCodes, toolFileUrl } from '@campus/contracts';
import type { LanguageCode, Localised } from '@campus/contracts';

export interface ToolEntry {
  showName: string;
  use: string;
  fileName: string;
  url: string;
}

/** A bare file name: no separators, no `..`, no leading dot, nothing a path could be made of. */
export const toolFileNamePattern = '^[A-Za-z0-9][A-Za-z0-9._ ()-]{0,127}$';

/** The card issuer downloads `npm run build:issuer` makes, offered on gate deployments (README "Card issuer"). */
export const cardIssuerDownloads: readonly { fileName: string; showName: Localised; use: Localised }[] = [
  {
    fileName: 'card-issuer-linux-x64.tar.gz',
    showName: { 'en-US': 'Card issuer (Linux x64)', 'zh-CN': '发卡器（Linux x64）', 'zh-MO': '發卡器（Linux x64）' },
    use: {
      'en-US': 'For the operator PC beside the card reader: unpack, then run ./start.sh',
      'zh-CN': '用于读卡器旁的操作员电脑：解压后运行 ./start.sh',
      'zh-MO': '用於讀卡器旁的操作員電腦：解壓後執行 ./start.sh',
    },
  },
  {
    fileName: 'card-issuer-win-x64.zip',
    showName: { 'en-US': 'Card issuer (Windows x64)', 'zh-CN': '发卡器（Windows x64）', 'zh-MO': '發卡器（Windows x64）' },
    use: {
      'en-US': 'For the operator PC beside the card reader: unzip, then run start.cmd',
      'zh-CN': '用于读卡器旁的操作员电脑：解压后运行 start.cmd',
      'zh-MO': '用於讀卡器旁的操作員電腦：解壓後執行 start.cmd',
    },
  },
];

/**
 * A text of tools.json: a plain string (one language for all), or the three languages by code
 * (`{"en-US": …, "zh-CN": …, "zh-MO": …}`), of which the asked one is answered, else zh-CN, else any.
 */
function textIn(value: unknown, language: LanguageCode): string | null {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null) return null;
  const byLanguage = value as Partial<Record<string, unknown>>;
  const text = [language, fallbackLanguage, ...languageCodes].map((code) => byLanguage[code]).find((item) => typeof item === 'string' && item !== '');
  return typeof text === 'string' ? text : null;
}

/**
 * Downloadable tools: DATA_DIR/tools/tools.json lists the files kept next to it; gate deployments also offer the
 * card issuer downloads found in `issuerDownloadsDir` (dist/card-issuer of a build).
 */
export class ToolsService {
  readonly dir: string;

  constructor(
    dataDir: string,
    private readonly issuerDownloadsDir: string | null = null,
  ) {
    this.dir = path.join(dataDir, 'tools');
  }

  private async issuerDownloads(language: LanguageCode): Promise<{ entry: ToolEntry; path: string; size: number }[]> {
    if (this.issuerDownloadsDir === null) return [];
    const found = [];
    for (const download of cardIssuerDownloads) {
      const full = path.join(this.issuerDownloadsDir, download.fileName);
      const stat = await fs.promises.stat(full).catch(() => null);
      if (stat?.isFile()) {
        const entry = { showName: download.showName[language], use: download.use[language], fileName: download.fileName, url: toolFileUrl(download.fileName) };
        found.push({ entry, path: full, size: stat.size });
      }
    }
    return found;
  }

  /** The tools in `language` (the request's). */
  async list(language: LanguageCode): Promise<ToolEntry[]> {
    const listed = await this.listed(language);
    const issuer = (await this.issuerDownloads(language)).map((d) => d.entry).filter((d) => !listed.some((t) => t.fileName === d.fileName));
    return [...listed, ...issuer];
  }

  private async listed(language: LanguageCode): Promise<ToolEntry[]> {
    let raw: string;
    try {
      raw = await fs.promises.readFile(path.join(this.dir, 'tools.json'), 'utf8');
    } catch {
      return [];
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return [];
    }
    if (!Array.isArray(parsed)) return [];
    return parsed
      .filter((t): t is Record<string, unknown> => typeof t === 'object' && t !== null)
      .filter((t) => typeof t.fileName === 'string' && new RegExp(toolFileNamePattern).test(t.fileName))
      .map((t) => ({
        showName: textIn(t.showName, language) ?? String(t.fileName),
        use: textIn(t.use, language) ?? '',
        fileName: String(t.fileName),
        url: toolFileUrl(String(t.fileName)),
      }));
  }

  /** The absolute path of a tool file, or null when the name is unsafe or the file is missing. */
  async file(fileName: string): Promise<{ path: string; size: number } | null> {
    if (!new RegExp(toolFileNamePattern).test(fileName) || fileName.includes('..') || fileName === 'tools.json') return null;
    const download = (await this.issuerDownloads(fallbackLanguage)).find((d) => d.entry.fileName === fileName);
    if (download) return { path: download.path, size: download.size };
    const full = path.resolve(this.dir, fileName);
    if (path.dirname(full) !== path.resolve(this.dir)) return null;
    try {
      const real = await fs.promises.realpath(full);
      if (path.dirname(real) !== (await fs.promises.realpath(this.dir))) return null;
      const stat = await fs.promises.stat(real);
      return stat.isFile() ? { path: real, size: stat.size } : null;
    } catch {
      return null;
    }
  }
}
