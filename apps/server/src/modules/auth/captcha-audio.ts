import { randomBytes, randomInt } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { LanguageCode } from '@campus/contracts';
import { repoRoot } from '../../config.ts';
import { pcm8Samples, pcm8Wav } from '../../lib/wav.ts';

/**
 * The image code said aloud (WCAG 1.1.1: an alternative that does not rely on sight), in the language of the
 * request. The characters come from apps/server/captcha-voices (scripts/captcha-voices.mjs made them with eSpeak
 * NG): each one at its own speed and loudness, after a pause of its own, over a bed of noise and of characters
 * played backwards, so that a recogniser cannot cut the recording at silences or match a fixed waveform, while a
 * person hears five characters clearly in front of a murmur.
 */

const voicesDir = path.join(repoRoot, 'apps', 'server', 'captcha-voices');

interface VoiceIndex {
  sampleRate: number;
  alphabet: string;
  languages: Record<LanguageCode, { file: string; characters: Record<string, [number, number]> }>;
}

interface Voice {
  sampleRate: number;
  clips: Map<string, Float32Array>;
}

const voices = new Map<LanguageCode, Voice>();

function voiceOf(language: LanguageCode): Voice {
  let voice = voices.get(language);
  if (!voice) {
    const index = JSON.parse(fs.readFileSync(path.join(voicesDir, 'index.json'), 'utf8')) as VoiceIndex;
    const entry = index.languages[language];
    const all = pcm8Samples(fs.readFileSync(path.join(voicesDir, entry.file)));
    const clips = new Map<string, Float32Array>();
    for (const [character, [start, end]] of Object.entries(entry.characters)) clips.set(character, all.subarray(start, end));
    voice = { sampleRate: index.sampleRate, clips };
    voices.set(language, voice);
  }
  return voice;
}

const between = (low: number, high: number) => low + randomInt(high - low + 1);

/** `clip` played `speed` times as fast (higher and shorter, or lower and longer), linearly interpolated. */
function atSpeed(clip: Float32Array, speed: number): Float32Array {
  const out = new Float32Array(Math.floor(clip.length / speed));
  for (let i = 0; i < out.length; i += 1) {
    const at = i * speed;
    const low = Math.floor(at);
    const high = Math.min(low + 1, clip.length - 1);
    out[i] = (clip[low] ?? 0) + ((clip[high] ?? 0) - (clip[low] ?? 0)) * (at - low);
  }
  return out;
}

function mixInto(target: Float32Array, clip: Float32Array, at: number, gain: number): void {
  for (let i = 0; i < clip.length && at + i < target.length; i += 1) target[at + i] = (target[at + i] ?? 0) + (clip[i] ?? 0) * gain;
}

/** A WAV file (8 kHz, 8-bit mono) saying `text` in `language`; a character outside the code's alphabet is an error. */
export function speakCaptcha(text: string, language: LanguageCode): Buffer {
  const voice = voiceOf(language);
  const ms = (milliseconds: number) => Math.round((milliseconds * voice.sampleRate) / 1000);
  const said = [...text.toUpperCase()].map((character) => {
    const clip = voice.clips.get(character);
    if (!clip) throw new Error(`the captcha voice has no "${character}"`);
    return atSpeed(clip, between(90, 112) / 100);
  });
  const starts: number[] = [];
  let length = ms(between(500, 900));
  for (const clip of said) {
    starts.push(length);
    length += clip.length + ms(between(450, 850));
  }
  const out = new Float32Array(length);
  // a murmur: characters of the same voice backwards, quieter, anywhere (over the pauses too)
  const everyClip = [...voice.clips.values()];
  for (let i = 0; i < text.length + 3; i += 1) {
    const clip = everyClip[randomInt(everyClip.length)] ?? new Float32Array(0);
    const backwards = atSpeed(clip, between(80, 125) / 100).reverse();
    mixInto(out, backwards, randomInt(Math.max(1, length - backwards.length)), between(14, 22) / 100);
  }
  said.forEach((clip, i) => mixInto(out, clip, starts[i] ?? 0, between(75, 95) / 100));
  // and a soft hiss: noise through a one-pole low-pass, so it sounds like a room rather than a whistle
  const hiss = between(6, 12) / 100;
  const noise = randomBytes(out.length);
  let previous = 0;
  for (let i = 0; i < out.length; i += 1) {
    previous = previous * 0.6 + ((noise[i] ?? 128) / 127.5 - 1) * 0.4;
    out[i] = (out[i] ?? 0) + previous * hiss;
  }
  return pcm8Wav(out, voice.sampleRate);
}
