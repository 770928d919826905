import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildAdminCard, makeMotherCard, openAdminCard, openMotherCard, readMotherCard, sm3Hex } from '../src/index.ts';

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

  it('the worked example of a mother card is the bytes this code makes, with argon2id and with the PBKDF2 of before', () => {
    const section = /### Worked example: a vendor's mother card([\s\S]*?)\n## /.exec(doc)?.[1] ?? '';
    const blocks = [...section.matchAll(/```hex\n([\s\S]*?)```/g)].map((m) => Buffer.from((m[1] ?? '').replace(/\s+/g, ''), 'hex'));
    expect(blocks).toHaveLength(2);
    const customerPwdDigest = sm3Hex('Customer#2026');
    const card = (derivation: 'argon2id' | 'pbkdf2-sm3') => makeMotherCard({ customerNo: '10001', customerPwdDigest, cardSalt: Buffer.alloc(16, 0x5a), sysKeyCode: Buffer.alloc(16, 0xab), derivation });
    expect(blocks.map((block) => block.toString('hex'))).toEqual([card('argon2id').toString('hex'), card('pbkdf2-sm3').toString('hex')]);
    expect(section).toContain(`these ${card('argon2id').length} bytes`);
    expect(blocks.map((block) => readMotherCard(block).derivation)).toEqual(['argon2id', 'pbkdf2-sm3']);
    for (const block of blocks) expect(openMotherCard(block, customerPwdDigest).customerKey).toHaveLength(16);
  });
});
