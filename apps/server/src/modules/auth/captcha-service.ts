import { randomInt } from 'node:crypto';
import { captchaTtlSeconds } from '@campus/contracts';
import type { LanguageCode } from '@campus/contracts';
import { sha256Hex } from '../../lib/hash.ts';
import type { AuthRepository } from '../sessions/auth-repository.ts';
import { speakCaptcha } from './captcha-audio.ts';

/** No 0/O, 1/I/L: characters people do not confuse. */
const alphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export type CaptchaCheck = 'ok' | 'wrong' | 'expired';

function answerHash(verifyKey: string, answer: string): string {
  return sha256Hex(`${verifyKey}\u0000${answer.trim().toUpperCase()}`);
}

/** Characters in a code: five of 31 give about 28.6 million answers (four gave under a million). */
export const captchaLength = 5;

export function randomCaptchaText(): string {
  let text = '';
  for (let i = 0; i < captchaLength; i += 1) text += alphabet[randomInt(alphabet.length)];
  return text;
}

const between = (low: number, high: number) => low + randomInt(high - low + 1);

/**
 * Draws a code that people read and simple OCR does not: each character in its own size, angle, slant and
 * dark colour, the characters overlapping a little, two lines in the text's colours drawn across them (so
 * a segmenter cannot cut at gaps), and arcs and specks of noise behind. The canvas (a native Skia addon of some
 * tens of MB with the system's fonts) is loaded at the first code drawn, not at start (docs/architecture.md, Memory).
 */
async function drawCaptcha(text: string): Promise<Buffer> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const width = 150;
  const height = 44;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = `rgb(${between(232, 252)},${between(232, 252)},${between(232, 252)})`;
  ctx.fillRect(0, 0, width, height);
  for (let i = 0; i < 6; i += 1) {
    ctx.strokeStyle = `rgba(${randomInt(200)},${randomInt(200)},${randomInt(200)},0.45)`;
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.arc(randomInt(width), randomInt(height), between(8, 30), 0, Math.PI * (1 + Math.random()));
    ctx.stroke();
  }
  const colours: string[] = [];
  const step = (width - 20) / text.length;
  ctx.textBaseline = 'middle';
  [...text].forEach((ch, i) => {
    const colour = `rgb(${randomInt(110)},${randomInt(110)},${randomInt(110)})`;
    colours.push(colour);
    ctx.save();
    ctx.translate(12 + i * step + between(0, 6), height / 2 + between(-4, 4));
    ctx.rotate((between(-28, 28) * Math.PI) / 180);
    ctx.transform(1, 0, between(-25, 25) / 100, 1, 0, 0);
    ctx.font = `bold ${between(24, 30)}px sans-serif`;
    ctx.fillStyle = colour;
    ctx.fillText(ch, 0, 0);
    ctx.restore();
  });
  for (let i = 0; i < 2; i += 1) {
    ctx.strokeStyle = colours[randomInt(colours.length)] ?? '#333';
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(0, between(12, height - 12));
    ctx.bezierCurveTo(width / 3, randomInt(height), (2 * width) / 3, randomInt(height), width, between(12, height - 12));
    ctx.stroke();
  }
  for (let i = 0; i < 90; i += 1) {
    ctx.fillStyle = `rgba(${randomInt(255)},${randomInt(255)},${randomInt(255)},0.8)`;
    ctx.fillRect(randomInt(width), randomInt(height), 1.5, 1.5);
  }
  return canvas.toBuffer('image/png');
}

export interface CaptchaServiceDeps {
  repo: AuthRepository;
  text: () => string;
  now: () => number;
}

/** Image verification codes: stored hashed, valid 2 minutes, gone after the first check. */
export class CaptchaService {
  private readonly repo: AuthRepository;
  private readonly text: () => string;
  private readonly now: () => number;

  constructor(deps: CaptchaServiceDeps) {
    this.repo = deps.repo;
    this.text = deps.text;
    this.now = deps.now;
  }

  /** A new code for `verifyKey`, drawn; and said in `spokenIn` as well when asked (the one code answers both). */
  async issue(verifyKey: string, spokenIn?: LanguageCode): Promise<{ verifyKey: string; image: string; audio?: string; expiresIn: number }> {
    const text = this.text();
    const now = this.now();
    await this.repo.deleteCaptchasExpiredBefore(now);
    await this.repo.putCaptcha({
      key_hash: sha256Hex(verifyKey),
      answer_hash: answerHash(verifyKey, text),
      expires_at: now + captchaTtlSeconds * 1000,
    });
    const png = await drawCaptcha(text);
    const image = `data:image/png;base64,${png.toString('base64')}`;
    if (spokenIn === undefined) return { verifyKey, image, expiresIn: captchaTtlSeconds };
    return { verifyKey, image, audio: `data:audio/wav;base64,${speakCaptcha(text, spokenIn).toString('base64')}`, expiresIn: captchaTtlSeconds };
  }

  async check(verifyKey: string, answer: string): Promise<CaptchaCheck> {
    const row = await this.repo.takeCaptcha(sha256Hex(verifyKey));
    if (!row || row.expires_at <= this.now()) return 'expired';
    return row.answer_hash === answerHash(verifyKey, answer) ? 'ok' : 'wrong';
  }
}
