import { sha256Hex } from '../../lib/hash.ts';

/** The smaller encodings of a stored picture that browsers ask for in `Accept`, best first. */
export const modernFormats = [
  { contentType: 'image/avif', suffix: 'avif' },
  { contentType: 'image/webp', suffix: 'webp' },
] as const;

export type ModernFormat = (typeof modernFormats)[number];

/** Pictures turned into AVIF and WebP: photographs and drawings. A GIF may move, an SVG is already small. */
const convertible = new Set(['image/png', 'image/jpeg']);
/** Larger than this on a side, a picture is kept as it came (its conversion would take seconds and much memory). */
const largestSide = 4096;

// the same picture is converted once per process (the seed's background, in every test server of a worker)
const made = new Map<string, Map<ModernFormat['suffix'], Buffer>>();

/**
 * The AVIF and WebP encodings of a PNG or JPEG that are smaller than it (a login background of 164 KB as PNG is
 * 7 KB as AVIF and 14 KB as WebP). None for other types, for pictures too large, or for bytes that do not decode:
 * the original is then served to everyone.
 */
export async function smallerEncodings(contentType: string, body: Buffer): Promise<Map<ModernFormat['suffix'], Buffer>> {
  if (!convertible.has(contentType)) return new Map();
  const key = sha256Hex(body);
  const known = made.get(key);
  if (known) return known;
  const encodings = new Map<ModernFormat['suffix'], Buffer>();
  // loaded at the first upload, not at start (docs/architecture.md, Memory)
  const { createCanvas, loadImage } = await import('@napi-rs/canvas');
  try {
    const image = await loadImage(body);
    if (image.width > 0 && image.height > 0 && image.width <= largestSide && image.height <= largestSide) {
      const canvas = createCanvas(image.width, image.height);
      canvas.getContext('2d').drawImage(image, 0, 0);
      const avif = await canvas.encode('avif', { quality: 60, speed: 8 });
      const webp = await canvas.encode('webp', 80);
      if (avif.length < body.length) encodings.set('avif', avif);
      if (webp.length < body.length) encodings.set('webp', webp);
    }
  } catch {
    // not a picture the decoder reads: served as it came
  }
  if (made.size >= 32) made.clear();
  made.set(key, encodings);
  return encodings;
}

/** The stored id of `id`'s encoding in `format`: a dot, which no id of an upload may hold. */
export function variantId(id: string, format: ModernFormat['suffix']): string {
  return `${id}.${format}`;
}

/** The best format the browser takes, by its `Accept` header (one that refuses a type with q=0 does not get it). */
export function acceptedFormats(accept: string | undefined): ModernFormat[] {
  if (!accept) return [];
  const taken = new Set<string>();
  for (const part of accept.split(',')) {
    const [type = '', ...parameters] = part.trim().toLowerCase().split(';');
    const q = parameters.map((parameter) => parameter.trim()).find((parameter) => parameter.startsWith('q='));
    if (q !== undefined && Number(q.slice(2)) === 0) continue;
    taken.add(type.trim());
  }
  return modernFormats.filter((format) => taken.has(format.contentType));
}
