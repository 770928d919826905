import fs from 'node:fs';
import path from 'node:path';
import { licenceAlgorithms } from '@campus/contracts';
import type { LicenceAlgorithm } from '@campus/contracts';
import { ConfigError, repoRoot } from '../../config.ts';
import { kidPattern, LicenceFormatError, trustedKey } from './licence-file.ts';
import type { TrustedKey, TrustList } from './licence-file.ts';

/** The repository's test vendor keys: trusted only on a demo installation when LICENCE_TRUST_FILE is unset. */
export const testTrustFile = path.join(repoRoot, 'apps', 'server', 'licence-keys', 'test-trust.json');

/** Reads a trust file `{kid: {alg, publicKey}}`; throws LicenceFormatError naming what is wrong. */
export function readTrustFile(file: string): TrustList {
  let value: unknown;
  try {
    value = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
  } catch (error) {
    throw new LicenceFormatError(`cannot read ${file} as JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new LicenceFormatError(`${file} is not a JSON object of keys by kid`);
  const keys = new Map<string, TrustedKey>();
  for (const [kid, entry] of Object.entries(value)) {
    const e = entry as { alg?: unknown; publicKey?: unknown } | null;
    if (!kidPattern.test(kid)) throw new LicenceFormatError(`${file}: "${kid}" is not a key id`);
    if (typeof e !== 'object' || e === null || typeof e.alg !== 'string' || !(licenceAlgorithms as readonly string[]).includes(e.alg) || typeof e.publicKey !== 'string') {
      throw new LicenceFormatError(`${file}: key ${kid} must be {"alg": "Ed25519" | "SM2", "publicKey": "…"}`);
    }
    try {
      keys.set(kid, trustedKey(e.alg as LicenceAlgorithm, e.publicKey));
    } catch (error) {
      throw new LicenceFormatError(`${file}: key ${kid}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return keys;
}

/** The trust list of a configuration: its file, else the test keys on a demo installation, else none. */
export function trustListFor(trustFile: string | null, trustTestKeys: boolean): TrustList {
  if (trustFile !== null) {
    try {
      return readTrustFile(trustFile);
    } catch (error) {
      if (error instanceof LicenceFormatError) throw new ConfigError('LICENCE_TRUST_FILE', error.message);
      throw error;
    }
  }
  return trustTestKeys ? readTrustFile(testTrustFile) : new Map();
}
