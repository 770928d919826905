import fs from 'node:fs';
import path from 'node:path';

export interface SubAppFile {
  path: string;
  size: number;
  mtimeMs: number;
}

export type SubAppLookup =
  | { kind: 'file'; file: SubAppFile }
  /** A folder asked for without its trailing '/': its URL with one. */
  | { kind: 'folder'; location: string }
  /** A path that could leave the sub-app folders (`..`, encoded separators, hidden files, control characters). */
  | { kind: 'refused' }
  | { kind: 'missing' };

// eslint-disable-next-line no-control-regex
const unsafeSegment = /[/\\\u0000-\u001f\u007f]|^\.|^$/;

/** The decoded segments of a URL path below /subapps/, or null when one is unsafe. */
function safeSegments(rawPath: string): string[] | null {
  const segments: string[] = [];
  for (const raw of rawPath.split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return null;
    }
    // '.', '..', dotfiles, empty segments ('//'), separators smuggled in encoded
    if (unsafeSegment.test(segment)) return null;
    segments.push(segment);
  }
  return segments;
}

async function fileAt(root: string, relative: string[]): Promise<SubAppFile | null> {
  const base = path.resolve(root);
  const full = path.resolve(base, ...relative);
  if (!full.startsWith(base + path.sep)) return null;
  try {
    const stat = await fs.promises.stat(full);
    return stat.isFile() ? { path: full, size: stat.size, mtimeMs: stat.mtimeMs } : null;
  } catch {
    return null;
  }
}

export interface SubAppFilesDeps {
  /** SUBAPPS_DIR: the deployment's builds, a folder each. */
  subAppsDir: string;
  /** The bundled builds: their directory by folder. */
  bundled: Readonly<Record<string, string>>;
}

/**
 * Finds sub-app files (DESIGN §8). A folder's files come from one build as a whole: the deployment's
 * (`subAppsDir/<folder>`) when it holds index.html there, else the bundled build of that folder, so a
 * deployment's index.html is never mixed with bundled scripts.
 */
export class SubAppFiles {
  private readonly bundledFolders: [string, string][];

  private readonly subAppsDir: string;

  constructor({ subAppsDir, bundled }: SubAppFilesDeps) {
    this.subAppsDir = subAppsDir;
    // longest folder first, so a nested folder is matched before its parent
    this.bundledFolders = Object.entries(bundled).sort(([a], [b]) => b.length - a.length);
  }

  /** `rawPath`: the URL path after `/subapps/`, still percent-encoded; '' or a trailing '/' means index.html. */
  async lookup(rawPath: string): Promise<SubAppLookup> {
    const isFolderUrl = rawPath === '' || rawPath.endsWith('/');
    const segments = safeSegments(isFolderUrl ? `${rawPath}index.html` : rawPath);
    if (segments === null) return { kind: 'refused' };
    // a file is always inside a folder: nothing is served from the top of /subapps/ itself
    const file = segments.length >= 2 ? await this.find(segments) : null;
    if (file) return { kind: 'file', file };
    if (!isFolderUrl && (await this.find([...segments, 'index.html']))) return { kind: 'folder', location: `/subapps/${rawPath}/` };
    return { kind: 'missing' };
  }

  private async find(segments: string[]): Promise<SubAppFile | null> {
    const relative = segments.join('/');
    for (const [folder, dir] of this.bundledFolders) {
      if (!relative.startsWith(`${folder}/`)) continue;
      const own = await fileAt(this.subAppsDir, [...folder.split('/'), 'index.html']);
      if (own) break;
      return fileAt(dir, segments.slice(folder.split('/').length));
    }
    return fileAt(this.subAppsDir, segments);
  }
}
