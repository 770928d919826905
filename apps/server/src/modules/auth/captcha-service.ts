import { randomInt } from 'node:crypto';
import { createCanvas } from '@napi-rs/canvas';
import { captchaTtlSeconds } from '@campus/contracts';
import { sha256Hex } from '../../lib/hash.ts';
import type { AuthRepository } from './auth-repository.ts';

/** No 0/O, 1/I/L: characters people do not confuse. */
const alphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export type CaptchaCheck = 'ok' | 'wrong' | 'expired';

function answerHash(verifyKey: string, answer: string): string {
  return sha256Hex(`${verifyKey}\u0000${answer.trim().toUpperCase()}`);
}

export function randomCaptchaText(): string {
  let text = '';
  for (let i = 0; i < 4; i += 1) text += alphabet[randomInt(alphabet.length)];
  return text;
}

function drawCaptcha(text: string): Buffer {
  const width = 120;
  const height = 40;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = `rgb(${235 + randomInt(20)},${235 + randomInt(20)},${235 + randomInt(20)})`;
  ctx.fillRect(0, 0, width, height);
  for (let i = 0; i < 5; i += 1) {
    ctx.strokeStyle = `rgba(${randomInt(160)},${randomInt(160)},${randomInt(160)},0.7)`;
    ctx.lineWidth = 1 + randomInt(2);
    ctx.beginPath();
    ctx.moveTo(randomInt(width), randomInt(height));
    ctx.bezierCurveTo(randomInt(width), randomInt(height), randomInt(width), randomInt(height), randomInt(width), randomInt(height));
    ctx.stroke();
  }
  ctx.font = 'bold 26px sans-serif';
  ctx.textBaseline = 'middle';
  [...text].forEach((ch, i) => {
    ctx.save();
    ctx.translate(14 + i * 26, height / 2 + randomInt(7) - 3);
    ctx.rotate(((randomInt(41) - 20) * Math.PI) / 180);
    ctx.fillStyle = `rgb(${randomInt(120)},${randomInt(120)},${randomInt(120)})`;
    ctx.fillText(ch, 0, 0);
    ctx.restore();
  });
  for (let i = 0; i < 60; i += 1) {
    ctx.fillStyle = `rgba(${randomInt(255)},${randomInt(255)},${randomInt(255)},0.8)`;
    ctx.fillRect(randomInt(width), randomInt(height), 1.5, 1.5);
  }
  return canvas.toBuffer('image/png');
}

/** Image verification codes: stored hashed, valid 2 minutes, gone after the first check. */
export class CaptchaService {
  constructor(
    private readonly repo: AuthRepository,
    private readonly text: () => string,
    private readonly now: () => number,
  ) {}

  async issue(verifyKey: string): Promise<{ verifyKey: string; image: string; expiresIn: number }> {
    const text = this.text();
    const now = this.now();
    await this.repo.deleteCaptchasExpiredBefore(now);
    await this.repo.putCaptcha({
      key_hash: sha256Hex(verifyKey),
      answer_hash: answerHash(verifyKey, text),
      expires_at: now + captchaTtlSeconds * 1000,
    });
    const png = drawCaptcha(text);
    return { verifyKey, image: `data:image/png;base64,${png.toString('base64')}`, expiresIn: captchaTtlSeconds };
  }

  async check(verifyKey: string, answer: string): Promise<CaptchaCheck> {
    const row = await this.repo.takeCaptcha(sha256Hex(verifyKey));
    if (!row || row.expires_at <= this.now()) return 'expired';
    return row.answer_hash === answerHash(verifyKey, answer) ? 'ok' : 'wrong';
  }
}
