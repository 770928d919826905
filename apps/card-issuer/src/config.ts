import path from 'node:path';
import { localDeviceServicePort } from '@campus/contracts';
import type { Localised } from '@campus/contracts';
import { consoleMessages } from './console-messages.ts';
import { LocalisedError, eachLanguage } from './localised.ts';
import { demoMotherFrom } from './readers/demo-cards.ts';
import type { DemoMother } from './readers/demo-cards.ts';

export interface IssuerConfig {
  port: number;
  /** Always loopback: the issuer serves the browser on the same PC. */
  host: '127.0.0.1';
  dataDir: string;
  /** Shell origins that may call the issuer (CORS); also the servers it may relay sign-ins to. */
  allowedOrigins: string[];
  reader: 'virtual' | 'pcsc';
  /** CARD_READER_NAME (PC/SC): the reader to use, its name or the start of it; null for the first reader. */
  readerName: string | null;
  /** CARD_FILE_ID (PC/SC): the card's transparent file that holds its image (docs/cards.md "Real cards"). */
  fileId: number;
  /** CARD_ISSUER_DEMO_MOTHER (virtual reader only): the demo's mother card, made on start when the reader has none. */
  demoMother: DemoMother | null;
  /** CARD_ISSUER_DOCS: serve the API description page /docs (and /docs/json); off unless asked for. */
  docs: boolean;
}

/** A setting the issuer cannot start with: the variable and what is wrong with it, in the three languages. */
export class IssuerConfigError extends LocalisedError {
  constructor(
    readonly variable: string,
    problem: Localised,
  ) {
    super(eachLanguage((language) => consoleMessages.invalidConfiguration(variable, problem[language])[language]));
    this.name = 'IssuerConfigError';
  }
}

function origin(value: string, variable: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new IssuerConfigError(variable, consoleMessages.notAnOrigin(value));
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search || url.username) {
    throw new IssuerConfigError(variable, consoleMessages.notAnOrigin(value));
  }
  return url.origin;
}

function switchVar(env: Record<string, string | undefined>, variable: string, fallback: boolean): boolean {
  const raw = env[variable]?.trim();
  if (!raw) return fallback;
  const value = raw.toLowerCase();
  if (['on', 'true', '1', 'yes'].includes(value)) return true;
  if (['off', 'false', '0', 'no'].includes(value)) return false;
  throw new IssuerConfigError(variable, consoleMessages.notOnOrOff(raw));
}

/** The card issuer's settings (docs/operator-pc.md "What the PC needs"). */
export function loadIssuerConfig(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): IssuerConfig {
  const rawPort = env.CARD_ISSUER_PORT?.trim() || String(localDeviceServicePort);
  if (!/^\d{1,5}$/.test(rawPort) || Number(rawPort) > 65535) throw new IssuerConfigError('CARD_ISSUER_PORT', consoleMessages.notAPort(rawPort));
  const origins = (env.CARD_ISSUER_ALLOWED_ORIGINS?.trim() || 'http://127.0.0.1:6300,http://localhost:6300')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
    .map((item) => origin(item, 'CARD_ISSUER_ALLOWED_ORIGINS'));
  const reader = (env.CARD_READER?.trim() || 'virtual').toLowerCase();
  if (reader !== 'virtual' && reader !== 'pcsc') throw new IssuerConfigError('CARD_READER', consoleMessages.notAReaderKind(reader));
  const fileId = env.CARD_FILE_ID?.trim() || '0101';
  if (!/^[0-9A-Fa-f]{4}$/.test(fileId) || ['3F00', '3FFF', 'FFFF', '2F02'].includes(fileId.toUpperCase())) {
    throw new IssuerConfigError('CARD_FILE_ID', consoleMessages.notAFileId(fileId));
  }
  const readerName = env.CARD_READER_NAME?.trim() || null;
  if (readerName !== null && readerName.length > 200) throw new IssuerConfigError('CARD_READER_NAME', consoleMessages.readerNameTooLong(200));
  let demoMother: DemoMother | null;
  try {
    demoMother = demoMotherFrom(env.CARD_ISSUER_DEMO_MOTHER);
  } catch {
    throw new IssuerConfigError('CARD_ISSUER_DEMO_MOTHER', consoleMessages.notADemoMother);
  }
  return {
    port: Number(rawPort),
    host: '127.0.0.1',
    dataDir: path.resolve(cwd, env.CARD_ISSUER_DATA_DIR?.trim() || path.join('data', 'card-issuer')),
    allowedOrigins: [...new Set(origins)],
    reader,
    readerName,
    fileId: Number.parseInt(fileId, 16),
    demoMother,
    docs: switchVar(env, 'CARD_ISSUER_DOCS', false),
  };
}
