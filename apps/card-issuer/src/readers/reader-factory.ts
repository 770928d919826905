import type { IssuerConfig } from '../config.ts';
import type { CardReader } from './card-reader.ts';
import { ensureDemoCards } from './demo-cards.ts';
import { VirtualReader, virtualReaderName } from './virtual-reader.ts';

/** The reader driver CARD_READER names; the PC/SC driver comes with issue 16. */
export function openReader(config: IssuerConfig): { reader: CardReader; name: string; made: string[] } {
  if (config.reader === 'pcsc') {
    throw new Error('CARD_READER=pcsc: the PC/SC driver is not part of this release yet; use CARD_READER=virtual');
  }
  const reader = new VirtualReader(config.dataDir);
  const made = config.demoMother ? ensureDemoCards(reader, config.demoMother) : [];
  return { reader, name: virtualReaderName, made };
}
