import type { OssRepository } from './oss-repository.ts';

export const ossIdPattern = '^[A-Za-z0-9_-]{1,64}$';
const allowedTypes = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/svg+xml']);

/** Stored images (logos, login backgrounds), kept in the database so server peers share them. */
export class OssService {
  constructor(
    private readonly repo: OssRepository,
    private readonly now: () => number,
  ) {}

  async put(id: string, contentType: string, body: Buffer): Promise<void> {
    if (!new RegExp(ossIdPattern).test(id)) throw new Error(`invalid object id ${id}`);
    if (!allowedTypes.has(contentType)) throw new Error(`content type ${contentType} is not an image type`);
    await this.repo.put({ id, content_type: contentType, body, created_at: this.now() });
  }

  async get(id: string): Promise<{ contentType: string; body: Buffer } | undefined> {
    const row = await this.repo.get(id);
    if (!row) return undefined;
    return { contentType: row.content_type, body: Buffer.from(row.body) };
  }
}
