import fs from 'node:fs';
import path from 'node:path';
import { fallbackLanguage, languageCodes, toolFileUrl } from '@campus/contracts';
import type { LanguageCode, Localised } from '@campus/contracts';
import { displayTextProblem } from '../../lib/display-text.ts';

export interface ToolEntry {
  showName: string;
  use: string;
  fileName: string;
  url: string;
}

/** A bare file name: no separators, no `..`, no leading dot, nothing a path could be made of. */
export const toolFileNamePattern = '^[A-Za-z0-9][A-Za-z0-9._ ()-]{0,127}$';

/** The card issuer downloads `npm run build:issuer` makes, offered on gate deployments (docs/operator-pc.md "In a source checkout"). */
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

type DownloadTexts = { showName: Localised; use: Localised };

/** The guide for the operator's PC (docs/operator-pc.md), offered after the card issuer downloads. */
export const operatorGuideDownload: { fileName: string } & DownloadTexts = {
  fileName: 'card-issuer-operator-pc-guide.md',
  showName: { 'en-US': 'Operator PC guide (card issuer)', 'zh-CN': '操作员电脑指南（发卡器）', 'zh-MO': '操作員電腦指南（發卡器）' },
  use: {
    'en-US': 'Installing the card issuer on Windows or Linux and as a service, the browser’s local network prompt, which readers and cards work, what each reader code means, updating the issuer (Markdown text, in English)',
    'zh-CN': '在 Windows 或 Linux 上安装发卡器及以服务方式运行、浏览器的本地网络访问提示、可用的读卡器和卡片、各读卡器代码的含义、更新发卡器（英文文本）',
    'zh-MO': '在 Windows 或 Linux 上安裝發卡器及以服務方式執行、瀏覽器的本機網絡存取提示、可用的讀卡器和卡片、各讀卡器代碼的含義、更新發卡器（英文文字）',
  },
};

/** Where the card issuer downloads are (dist/card-issuer of a build) and the operator PC guide beside them. */
export interface IssuerDownloads {
  dir: string;
  guide: string;
}

/**
 * The sub-app SDK's downloads (scripts/pack-subapp-sdk.mjs), in the order /tools lists them: the package and the
 * starter (their version in the name, as npm packs them), then the guide.
 */
const sdkDownloadKinds: readonly { pattern: RegExp; texts: (fileName: string, version: string) => DownloadTexts }[] = [
  {
    pattern: /^campus-subapp-sdk-(\d+\.\d+\.\d+)\.tgz$/,
    texts: (fileName, version) => ({
      showName: { 'en-US': `Sub-app SDK ${version} (npm package)`, 'zh-CN': `子应用 SDK ${version}（npm 包）`, 'zh-MO': `子應用 SDK ${version}（npm 套件）` },
      use: {
        'en-US': `For teams building a sub-system for this shell: npm install ./${fileName} (the guide says the rest)`,
        'zh-CN': `供为本外壳开发子系统的团队使用：npm install ./${fileName}（其余步骤见指南）`,
        'zh-MO': `供為本外殼開發子系統的團隊使用：npm install ./${fileName}（其餘步驟見指南）`,
      },
    }),
  },
  {
    pattern: /^create-campus-subapp-(\d+\.\d+\.\d+)\.tgz$/,
    texts: (fileName, version) => ({
      showName: { 'en-US': `Sub-app starter ${version}`, 'zh-CN': `子应用起步模板 ${version}`, 'zh-MO': `子應用起步範本 ${version}` },
      use: {
        'en-US': `Makes a new sub-app with the SDK: npx --yes ./${fileName} my-app (add --plain for JavaScript without React)`,
        'zh-CN': `用 SDK 生成新的子应用：npx --yes ./${fileName} my-app（不用 React 的 JavaScript 版加 --plain）`,
        'zh-MO': `用 SDK 產生新的子應用：npx --yes ./${fileName} my-app（不用 React 的 JavaScript 版加 --plain）`,
      },
    }),
  },
  {
    pattern: /^campus-subapp-sdk-guide\.md$/,
    texts: () => ({
      showName: { 'en-US': 'Sub-app SDK guide', 'zh-CN': '子应用 SDK 指南', 'zh-MO': '子應用 SDK 指南' },
      use: {
        'en-US': 'How to build a sub-system and open it in this shell, step by step (Markdown text)',
        'zh-CN': '如何开发子系统并在本外壳中打开，逐步说明（Markdown 文本）',
        'zh-MO': '如何開發子系統並在本外殼中開啟，逐步說明（Markdown 文字）',
      },
    }),
  },
];

/**
 * A text of tools.json: a plain string (one language for all), or the three languages by code
 * (`{"en-US": …, "zh-CN": …, "zh-MO": …}`), of which the asked one is answered, else zh-CN, else any.
 */
function textIn(value: unknown, language: LanguageCode): string | null {
  // tools.json is the operator's: a text no name may show (U+202E, markup) is left out, as a missing one
  if (typeof value === 'string') return displayTextProblem(value) === null ? value : null;
  if (typeof value !== 'object' || value === null) return null;
  const byLanguage = value as Partial<Record<string, unknown>>;
  const text = [language, fallbackLanguage, ...languageCodes].map((code) => byLanguage[code]).find((item) => typeof item === 'string' && item !== '' && displayTextProblem(item) === null);
  return typeof text === 'string' ? text : null;
}

type ProductDownload = { entry: ToolEntry; path: string; size: number };

export interface ToolsServiceDeps {
  /** DATA_DIR: the tools are in its tools/ folder. */
  dataDir: string;
  /** The card issuer downloads and the operator PC guide (gate deployments only). */
  issuerDownloads?: IssuerDownloads | null;
  /** Where the sub-app SDK and its guide are (dist/subapp-sdk). */
  sdkDownloadsDir?: string | null;
}

/**
 * Downloadable tools: DATA_DIR/tools/tools.json lists the files kept next to it; the product's own downloads follow:
 * on gate deployments the card issuer downloads found in `issuerDownloads.dir` (dist/card-issuer of a build) and the
 * operator PC guide, and everywhere the sub-app SDK and its guide found in `sdkDownloadsDir` (dist/subapp-sdk).
 */
export class ToolsService {
  readonly dir: string;

  private readonly issuerDownloads: IssuerDownloads | null;
  private readonly sdkDownloadsDir: string | null;

  constructor(deps: ToolsServiceDeps) {
    this.dir = path.join(deps.dataDir, 'tools');
    this.issuerDownloads = deps.issuerDownloads ?? null;
    this.sdkDownloadsDir = deps.sdkDownloadsDir ?? null;
  }

  private async issuerFiles(language: LanguageCode): Promise<ProductDownload[]> {
    if (this.issuerDownloads === null) return [];
    const found = [];
    for (const download of cardIssuerDownloads) {
      const file = await productFile(path.join(this.issuerDownloads.dir, download.fileName), download.fileName, download, language);
      if (file) found.push(file);
    }
    const guide = await productFile(this.issuerDownloads.guide, operatorGuideDownload.fileName, operatorGuideDownload, language);
    if (guide) found.push(guide);
    return found;
  }

  private async sdkDownloads(language: LanguageCode): Promise<ProductDownload[]> {
    if (this.sdkDownloadsDir === null) return [];
    const names = await fs.promises.readdir(this.sdkDownloadsDir).catch(() => [] as string[]);
    const found = [];
    for (const kind of sdkDownloadKinds) {
      for (const name of names) {
        const match = kind.pattern.exec(name);
        const download = match ? await productFile(path.join(this.sdkDownloadsDir, name), name, kind.texts(name, match[1] ?? ''), language) : null;
        if (download) found.push(download);
      }
    }
    return found;
  }

  private async productDownloads(language: LanguageCode): Promise<ProductDownload[]> {
    return [...(await this.issuerFiles(language)), ...(await this.sdkDownloads(language))];
  }

  /** The tools in `language` (the request's). */
  async list(language: LanguageCode): Promise<ToolEntry[]> {
    const listed = await this.listed(language);
    const product = (await this.productDownloads(language)).map((d) => d.entry).filter((d) => !listed.some((t) => t.fileName === d.fileName));
    return [...listed, ...product];
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
    const download = (await this.productDownloads(fallbackLanguage)).find((d) => d.entry.fileName === fileName);
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

/** A download of the product kept at `full` and offered as `fileName`, when it is there as a file. */
async function productFile(full: string, fileName: string, texts: DownloadTexts, language: LanguageCode): Promise<ProductDownload | null> {
  const stat = await fs.promises.stat(full).catch(() => null);
  if (!stat?.isFile()) return null;
  return { entry: { showName: texts.showName[language], use: texts.use[language], fileName, url: toolFileUrl(fileName) }, path: full, size: stat.size };
}
