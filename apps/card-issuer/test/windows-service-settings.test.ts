import { describe, expect, it } from 'vitest';
import { parseSettings, settingsFile } from '../src/windows/service-settings.ts';

describe("the Windows service's settings.txt", () => {
  it('gives the issuer its variables, ignoring comments, blank lines and a BOM (Notepad)', () => {
    const parsed = parseSettings('\uFEFF# comment\r\nCARD_ISSUER_ALLOWED_ORIGINS = https://campus.example.com\r\n\r\n; also a comment\r\ncard_reader=pcsc\r\nCARD_READER_NAME=ACS ACR39U ICC Reader 0\r\n');
    expect(parsed).toEqual({ env: { CARD_ISSUER_ALLOWED_ORIGINS: 'https://campus.example.com', CARD_READER: 'pcsc', CARD_READER_NAME: 'ACS ACR39U ICC Reader 0' }, problems: [] });
  });

  it('names the lines it ignores: not NAME=value, or not a setting of the issuer (the data folder is the service’s)', () => {
    const parsed = parseSettings('CARD_READER=virtual\nnonsense\nCARD_ISSUER_DATA_DIR=D:\\elsewhere\nPATH=C:\\evil\n');
    expect(parsed.env).toEqual({ CARD_READER: 'virtual' });
    expect(parsed.problems).toEqual([
      { line: 2, problem: 'not NAME=value' },
      { line: 3, problem: 'CARD_ISSUER_DATA_DIR is not a setting of the issuer' },
      { line: 4, problem: 'PATH is not a setting of the issuer' },
    ]);
  });

  it('is first written from the variables set in the installer’s console, the others as examples', () => {
    const text = settingsFile({ CARD_ISSUER_ALLOWED_ORIGINS: 'https://campus.example.com', CARD_READER: 'pcsc', PATH: 'C:\\Windows' });
    expect(parseSettings(text)).toEqual({ env: { CARD_ISSUER_ALLOWED_ORIGINS: 'https://campus.example.com', CARD_READER: 'pcsc' }, problems: [] });
    expect(text).toContain('# CARD_READER_NAME=');
    expect(text).not.toContain('PATH');
    expect(text).toContain('\r\n');
  });
});
