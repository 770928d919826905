import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildAdminCard, openAdminCard } from '../src/index.ts';

const doc = fs.readFileSync(new URL('../../../docs/cards.md', import.meta.url), 'utf8');

describe('docs/cards.md', () => {
  it("the worked example is the bytes this code makes, and they open", () => {
    const block = /### Worked example[\s\S]*?```hex\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(block, 'the example block').toBeDefined();
    const documented = Buffer.from((block ?? '').replace(/\s+/g, ''), 'hex');
    const systemKey = Buffer.from('00112233445566778899aabbccddeeff', 'hex');
    const made = buildAdminCard({ systemKey, fixedNo: '04A1B2C3', customerNo: '10001', issueSeq: 1, oprtNo: 'sysadmin', cardNum: 7, tenantCode: '1001', iv: Buffer.from('0f0e0d0c0b0a09080706050403020100', 'hex') });
    expect(documented.toString('hex')).toBe(made.toString('hex'));
    expect(doc).toContain(`these ${made.length} bytes`);
    expect(openAdminCard(documented, systemKey, '04A1B2C3').oprtNo).toBe('sysadmin');
  });
});
