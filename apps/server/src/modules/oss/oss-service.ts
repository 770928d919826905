import type { OssRepository, OssRow } from './oss-repository.ts';
import { acceptedFormats, modernFormats, smallerEncodings, variantId } from './image-variants.ts';

export const ossIdPattern = '^[A-Za-z0-9_-]{1,64}$';
const allowedTypes = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/svg+xml']);

export interface OssServiceDeps {
  repo: OssRepository;
  now: () => number;
}

/** Stored images (logos, login backgrounds), kept in the database so server peers share them. */
export class OssService {
  private readonly repo: OssRepository;
  private readonly now: () => number;

  constructor(deps: OssServiceDeps) {
    this.repo = deps.repo;
    this.now = deps.now;
  }

  /** Stores a picture, with its AVIF and WebP encodings when they are smaller (replacing those of the one before). */
  async put(id: string, contentType: string, body: Buffer): Promise<void> {
    if (!new RegExp(ossIdPattern).test(id)) throw new Error(`invalid object id ${id}`);
    if (!allowedTypes.has(contentType)) throw new Error(`content type ${contentType} is not an image type`);
    const createdAt = this.now();
    const encodings = await smallerEncodings(contentType, body);
    const rows: OssRow[] = [{ id, content_type: contentType, body, created_at: createdAt }];
    const gone: string[] = [];
    for (const format of modernFormats) {
      const encoded = encodings.get(format.suffix);
      if (encoded) rows.push({ id: variantId(id, format.suffix), content_type: format.contentType, body: encoded, created_at: createdAt });
      else gone.push(variantId(id, format.suffix));
    }
    await this.repo.putAll(rows, gone);
  }

  /** A picture in the smallest format `accept` names that it has, else as it was stored. */
  async get(id: string, accept?: string): Promise<{ contentType: string; body: Buffer } | undefined> {
    for (const format of acceptedFormats(accept)) {
      const variant = await this.repo.get(variantId(id, format.suffix));
      if (variant) return { contentType: variant.content_type, body: Buffer.from(variant.body) };
    }
    const row = await this.repo.get(id);
    if (!row) return undefined;
    return { contentType: row.content_type, body: Buffer.from(row.body) };
  }
}
