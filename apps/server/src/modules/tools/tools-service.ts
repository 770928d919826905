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

/** Downloadable tools: DATA_DIR/tools/tools.json lists the files kept next to it. */
export class ToolsService {
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, 'tools');
  }

  async list(): Promise<ToolEntry[]> {
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
