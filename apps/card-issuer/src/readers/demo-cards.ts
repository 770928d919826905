import { makeMotherCard, sm3Hex } from '@campus/card-crypto';
import type { Localised } from '@campus/contracts';
import { consoleMessages } from '../console-messages.ts';
import type { VirtualReader } from './virtual-reader.ts';

/** The demo's cards (docs/cards.md "The gate demo, step by step"): their fixed numbers, so the guide can name them. */
export const demoCardNumbers = { mother: 'DE000001', blanks: ['DE000002', 'DE000003', 'DE000004'] } as const;

export interface DemoMother {
  customerNo: string;
  customerPwd: string;
}

/**
 * CARD_ISSUER_DEMO_MOTHER=<customerNo>:<customer password>: a gate demo starts with the vendor's mother card on
 * the virtual reader and three blank cards beside it (for the system key card, the administrator card and a
 * spare), unless the reader already holds a mother card. Answers what it made, for the start-up message.
 */
export function ensureDemoCards(reader: VirtualReader, mother: DemoMother): Localised[] {
  const cards = reader.list();
  if (cards.some((card) => card.kind === 'mother')) return [];
  const made: Localised[] = [];
  const taken = new Set(cards.map((card) => card.fixedNo));
  if (!taken.has(demoCardNumbers.mother)) {
    reader.addCard(makeMotherCard({ customerNo: mother.customerNo, customerPwdDigest: sm3Hex(mother.customerPwd) }), demoCardNumbers.mother);
    reader.place(demoCardNumbers.mother);
    made.push(consoleMessages.demoMotherMade(demoCardNumbers.mother, mother.customerNo));
  }
  for (const fixedNo of demoCardNumbers.blanks) {
    if (taken.has(fixedNo)) continue;
    reader.addCard(undefined, fixedNo);
    made.push(consoleMessages.demoBlankMade(fixedNo));
  }
  return made;
}

/** Reads CARD_ISSUER_DEMO_MOTHER; null when unset. */
export function demoMotherFrom(value: string | undefined): DemoMother | null {
  const raw = value?.trim();
  if (!raw) return null;
  const at = raw.indexOf(':');
  const customerNo = raw.slice(0, at);
  const customerPwd = raw.slice(at + 1);
  if (at < 1 || !/^[1-9][0-9]{0,7}$/.test(customerNo) || customerPwd === '') {
    throw new Error('the customer number is 1 to 8 digits without a leading zero, and the password is not empty');
  }
  return { customerNo, customerPwd };
}
