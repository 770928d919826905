import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openMotherCard, sm3Hex } from '@campus/card-crypto';
import { IssuerConfigError, loadIssuerConfig } from '../src/config.ts';
import { openReader } from '../src/readers/reader-factory.ts';
import { demoCardNumbers } from '../src/readers/demo-cards.ts';
import { VirtualReader } from '../src/readers/virtual-reader.ts';

const folders: string[] = [];
function dataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'issuer-demo-'));
  folders.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the gate demo’s cards (CARD_ISSUER_DEMO_MOTHER)', () => {
  it('starts with the mother card of the demo customer on the reader and three blank cards, once', async () => {
    const dir = dataDir();
    const config = loadIssuerConfig({ CARD_ISSUER_DATA_DIR: dir, CARD_ISSUER_DEMO_MOTHER: '10001:Customer#2026' });
    const first = await openReader(config);
    expect(first.made).toHaveLength(4);
    const cards = new VirtualReader(dir).list();
    expect(cards.map((c) => [c.fixedNo, c.kind, c.onReader])).toEqual([
      [demoCardNumbers.mother, 'mother', true],
      ...demoCardNumbers.blanks.map((fixedNo) => [fixedNo, 'blank', false]),
    ]);
    const onReader = await first.reader.read();
    expect(openMotherCard(onReader.image, sm3Hex('Customer#2026')).card.customerNo).toBe('10001');
    expect(() => openMotherCard(onReader.image, sm3Hex('Other#2026'))).toThrow();
    // a second start leaves the reader as the operator left it
    new VirtualReader(dir).remove();
    expect((await openReader(config)).made).toEqual([]);
    expect(new VirtualReader(dir).list().some((c) => c.onReader)).toBe(false);
  });

  it('is off unless set, and a malformed value stops the start with the variable named', async () => {
    const dir = dataDir();
    expect((await openReader(loadIssuerConfig({ CARD_ISSUER_DATA_DIR: dir }))).made).toEqual([]);
    expect(new VirtualReader(dir).list()).toEqual([]);
    for (const bad of ['10001', '010001:pw', '10001:', 'abc:pw']) {
      expect(() => loadIssuerConfig({ CARD_ISSUER_DATA_DIR: dir, CARD_ISSUER_DEMO_MOTHER: bad }), bad).toThrow(IssuerConfigError);
    }
  });
});
