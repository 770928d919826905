import fs from 'node:fs';
import path from 'node:path';
import { toolFileUrl } from '@campus/contracts';

export interface ToolEntry {
  showName: string;
  use: string;
  fileName: string;
  url: string;
}

/** A bare file name: no separators, no `..`, no leading dot, nothing a path could be made of. */
export const toolFileNamePattern = '^[A-Za-z0-9][A-Za-z0-9._ ()-]{0,127}$';

/** The card issuer downloads `npm run build:issuer` makes, offered on gate deployments (README "Card issuer"). */
export const cardIssuerDownloads = [
  {
    fileName: 'card-issuer-linux-x64.tar.gz',
    showName: 'Card issuer (Linux x64) · 发卡器 · 發卡器',
    use: 'For the operator PC beside the card reader: unpack, then run ./start.sh · 在读卡器旁的操作员电脑上解压后运行 ./start.sh · 在讀卡器旁的操作員電腦上解壓後執行 ./start.sh',
  },
  {
    fileName: 'card-issuer-win-x64.zip',
    showName: 'Card issuer (Windows x64) · 发卡器 · 發卡器',
    use: 'For the operator PC beside the card reader: unzip, then run start.cmd · 在读卡器旁的操作员电脑上解压后运行 start.cmd · 在讀卡器旁的操作員電腦上解壓後執行 start.cmd',
  },
] as const;

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

  private async issuerDownloads(): Promise<{ entry: ToolEntry; path: string; size: number }[]> {
    if (this.issuerDownloadsDir === null) return [];
    const found = [];
    for (const download of cardIssuerDownloads) {
      const full = path.join(this.issuerDownloadsDir, download.fileName);
      const stat = await fs.promises.stat(full).catch(() => null);
      if (stat?.isFile()) found.push({ entry: { ...download, url: toolFileUrl(download.fileName) }, path: full, size: stat.size });
    }
    return found;
  }

  async list(): Promise<ToolEntry[]> {
    const listed = await this.listed();
    const issuer = (await this.issuerDownloads()).map((d) => d.entry).filter((d) => !listed.some((t) => t.fileName === d.fileName));
    return [...listed, ...issuer];
  }

  private async listed(): Promise<ToolEntry[]> {
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
        showName: typeof t.showName === 'string' ? t.showName : String(t.fileName),
        use: typeof t.use === 'string' ? t.use : '',
        fileName: String(t.fileName),
        url: toolFileUrl(String(t.fileName)),
      }));
  }

  /** The absolute path of a tool file, or null when the name is unsafe or the file is missing. */
  async file(fileName: string): Promise<{ path: string; size: number } | null> {
    if (!new RegExp(toolFileNamePattern).test(fileName) || fileName.includes('..') || fileName === 'tools.json') return null;
    const download = (await this.issuerDownloads()).find((d) => d.entry.fileName === fileName);
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
