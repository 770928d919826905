// Makes the spoken characters of the image code's audio alternative (apps/server/captcha-voices/): one WAV per
// language holding every character of the code's alphabet, spoken by eSpeak NG, and index.json with where each
// character lies in it. Run it again only to change the voices (it needs `espeak-ng`: apt-get install espeak-ng);
// the files it makes are kept in the repository, so neither a build nor a customer's server needs eSpeak.
//
//   node --import tsx scripts/captcha-voices.mjs
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// the server's own WAV writer, so the files are what captcha-audio.ts reads (hence --import tsx)
import { pcm8Wav } from '../apps/server/src/lib/wav.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'apps/server/captcha-voices');
// apps/server/src/modules/auth/captcha-service.ts: no 0/O, 1/I/L
const alphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
/** eSpeak NG voices: Latin letters are said by their English names in all three, digits in the language. */
const voices = { 'en-US': 'en-us', 'zh-CN': 'cmn', 'zh-MO': 'yue' };
const sampleRate = 8000;
/** Silence between two characters in the file (the index marks each character's own samples). */
const spacing = 800;

function readWav(file) {
  const bytes = readFileSync(file);
  let offset = 12;
  let format = null;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('ascii', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    if (id === 'fmt ') format = { channels: bytes.readUInt16LE(offset + 10), rate: bytes.readUInt32LE(offset + 12), bits: bytes.readUInt16LE(offset + 22) };
    // eSpeak writes the data chunk's size as 0x7fffffff when it streams: the chunk runs to the end of the file
    if (id === 'data' && format) {
      if (format.channels !== 1 || format.bits !== 16) throw new Error(`${file}: expected mono 16-bit PCM`);
      const end = Math.min(bytes.length, offset + 8 + size);
      const samples = new Float64Array((end - offset - 8) >> 1);
      for (let i = 0; i < samples.length; i += 1) samples[i] = bytes.readInt16LE(offset + 8 + 2 * i) / 32768;
      return { rate: format.rate, samples };
    }
    offset += 8 + size + (size & 1);
  }
  throw new Error(`${file}: no PCM data`);
}

/** Down to 8 kHz: a moving average against aliasing, then linear interpolation. */
function resample(samples, from, to) {
  const width = Math.max(1, Math.round(from / to));
  const smooth = new Float64Array(samples.length);
  let sum = 0;
  for (let i = 0; i < samples.length; i += 1) {
    sum += samples[i];
    if (i >= width) sum -= samples[i - width];
    smooth[i] = sum / Math.min(i + 1, width);
  }
  const out = new Float64Array(Math.floor((samples.length * to) / from));
  for (let i = 0; i < out.length; i += 1) {
    const at = (i * from) / to;
    const low = Math.floor(at);
    const high = Math.min(low + 1, smooth.length - 1);
    out[i] = smooth[low] + (smooth[high] - smooth[low]) * (at - low);
  }
  return out;
}

/** Without the silence before and after, at 90 % of full scale. */
function trimAndNormalise(samples) {
  const threshold = 0.02;
  let start = samples.findIndex((s) => Math.abs(s) > threshold);
  let end = samples.length - [...samples].reverse().findIndex((s) => Math.abs(s) > threshold);
  if (start < 0) throw new Error('eSpeak said nothing');
  start = Math.max(0, start - 80);
  end = Math.min(samples.length, end + 80);
  const part = samples.slice(start, end);
  const peak = part.reduce((max, s) => Math.max(max, Math.abs(s)), 0);
  return part.map((s) => (s / peak) * 0.9);
}

function speak(voice, character, dir) {
  const file = path.join(dir, 'say.wav');
  const ssml = `<speak><say-as interpret-as="characters">${character}</say-as></speak>`;
  const run = spawnSync('espeak-ng', ['-v', voice, '-s', '125', '-m', '-w', file, ssml], { encoding: 'utf8' });
  if (run.error || run.status !== 0) throw new Error(`espeak-ng -v ${voice} failed: ${run.error?.message ?? run.stderr}. Install it: apt-get install espeak-ng`);
  const wav = readWav(file);
  return trimAndNormalise(resample(wav.samples, wav.rate, sampleRate));
}

const work = mkdtempSync(path.join(os.tmpdir(), 'captcha-voices-'));
try {
  mkdirSync(outDir, { recursive: true });
  const index = { sampleRate, alphabet, languages: {} };
  for (const [language, voice] of Object.entries(voices)) {
    const parts = [];
    const where = {};
    let length = 0;
    for (const character of alphabet) {
      const said = speak(voice, character, work);
      where[character] = [length, length + said.length];
      parts.push(said, new Float64Array(spacing));
      length += said.length + spacing;
    }
    const all = new Float64Array(length);
    let at = 0;
    for (const part of parts) {
      all.set(part, at);
      at += part.length;
    }
    writeFileSync(path.join(outDir, `${language}.wav`), pcm8Wav(all, sampleRate));
    index.languages[language] = { file: `${language}.wav`, voice: `eSpeak NG ${voice}`, characters: where };
    console.log(`${language}: ${alphabet.length} characters, ${(length / sampleRate).toFixed(1)} s`);
  }
  writeFileSync(path.join(outDir, 'index.json'), `${JSON.stringify(index, null, 1)}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
