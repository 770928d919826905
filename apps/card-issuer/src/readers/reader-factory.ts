import type { IssuerConfig } from '../config.ts';
import type { CardReader } from './card-reader.ts';
import { ensureDemoCards } from './demo-cards.ts';
import { loadPcscBinding } from './pcsc/pcsc-binding.ts';
import { PcscReader } from './pcsc/pcsc-reader.ts';
import { VirtualReader, virtualReaderName } from './virtual-reader.ts';

export interface OpenedReader {
  reader: CardReader;
  /** What the start-up message and the pairing reply call it. */
  name: string;
  /** The demo cards start-up made (virtual reader, CARD_ISSUER_DEMO_MOTHER). */
  made: string[];
  /** What start-up found, for the start-up message. */
  notes: string[];
}

/** The reader driver CARD_READER names: the virtual reader (default) or any PC/SC reader through pcscd. */
export async function openReader(config: IssuerConfig): Promise<OpenedReader> {
  if (config.reader === 'pcsc') {
    const reader = new PcscReader({ binding: await loadPcscBinding(), readerName: config.readerName, fileId: config.fileId });
    const notes = config.demoMother ? ['CARD_ISSUER_DEMO_MOTHER is for the virtual reader: real cards come from the vendor'] : [];
    let name = 'PC/SC reader';
    try {
      const readers = reader.view();
      const used = readers.find((r) => r.used);
      if (used) name = `PC/SC: ${used.name}`;
      const lines = readers.map((r) => `${r.used ? '* ' : '  '}${r.name}${r.card === 'empty' ? '' : ' (card present)'}`);
      notes.push(lines.length > 0 ? `PC/SC readers (* the one used):\n${lines.join('\n')}` : 'No PC/SC reader is plugged in yet: plug one in, the issuer finds it then');
    } catch (error) {
      notes.push(`PC/SC: ${error instanceof Error ? error.message : String(error)}`);
    }
    return { reader, name, made: [], notes };
  }
  const reader = new VirtualReader(config.dataDir);
  const made = config.demoMother ? ensureDemoCards(reader, config.demoMother) : [];
  return { reader, name: virtualReaderName, made, notes: made.length > 0 ? [`Demo cards made: ${made.join('; ')}`] : [] };
}
