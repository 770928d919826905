import { describe, expect, it } from 'vitest';
import { isFinalReaderCode, isInterruptedWrite, isRetryableReaderCode, readerCodeMessages, readerCodes } from '@campus/contracts';

describe('card reader codes (spec §4, §8)', () => {
  it('only ok is a success; every failure has a message in the three languages', () => {
    for (const [name, code] of Object.entries(readerCodes)) {
      expect(code % 10 === 0, name).toBe(name === 'ok');
      const messages = readerCodeMessages[code];
      for (const language of ['en-US', 'zh-CN', 'zh-MO'] as const) expect(messages[language].length, `${name} ${language}`).toBeGreaterThan(0);
    }
  });

  it('990481 and the interrupted writes are retried; codes below 990299 are final', () => {
    expect(isRetryableReaderCode(readerCodes.noCard)).toBe(true);
    expect(isInterruptedWrite(990321) && isInterruptedWrite(990322)).toBe(true);
    expect(isRetryableReaderCode(990321) && isRetryableReaderCode(990322)).toBe(true);
    for (const code of [readerCodes.wrongCardKind, readerCodes.cardAlreadyIssued, readerCodes.cardNotBlank, readerCodes.unknownCard, readerCodes.keyMismatch]) {
      expect(isFinalReaderCode(code), String(code)).toBe(true);
      expect(isRetryableReaderCode(code), String(code)).toBe(false);
    }
    expect(isFinalReaderCode(readerCodes.ok) || isRetryableReaderCode(readerCodes.ok)).toBe(false);
  });
});
