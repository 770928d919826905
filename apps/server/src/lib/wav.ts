/** A WAV file of 8-bit unsigned PCM, mono, at `sampleRate`: what every browser plays. Samples run from -1 to 1. */
export function pcm8Wav(samples: ArrayLike<number>, sampleRate: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate, 28); // bytes a second
  header.writeUInt16LE(1, 32); // bytes a sample
  header.writeUInt16LE(8, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(samples.length, 40);
  const body = Buffer.alloc(samples.length);
  for (let i = 0; i < samples.length; i += 1) body[i] = Math.max(0, Math.min(255, Math.round(128 + (samples[i] ?? 0) * 127)));
  return Buffer.concat([header, body]);
}

/** The samples of a file pcm8Wav wrote (its 44-byte header skipped), from -1 to 1. */
export function pcm8Samples(wav: Buffer): Float32Array {
  const body = wav.subarray(44);
  const samples = new Float32Array(body.length);
  for (let i = 0; i < body.length; i += 1) samples[i] = ((body[i] ?? 128) - 128) / 127;
  return samples;
}
