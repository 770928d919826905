import type { Localised } from '@campus/contracts';
import type { IssuerConfig } from '../config.ts';
import { consoleMessages } from '../console-messages.ts';
import { eachLanguage, failureText, joinLocalised } from '../localised.ts';
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
  made: Localised[];
  /** What start-up found, for the start-up message (in the PC's language there). */
  notes: Localised[];
}

/** The reader driver CARD_READER names: the virtual reader (default) or any PC/SC reader through pcscd. */
export async function openReader(config: IssuerConfig): Promise<OpenedReader> {
  if (config.reader === 'pcsc') {
    const reader = new PcscReader({ binding: await loadPcscBinding(), readerName: config.readerName, fileId: config.fileId });
    const notes = config.demoMother ? [consoleMessages.demoMotherNotForPcsc] : [];
    let name = 'PC/SC reader';
    try {
      const readers = reader.view();
      const used = readers.find((r) => r.used);
      if (used) name = `PC/SC: ${used.name}`;
      const list = eachLanguage((language) =>
        readers.map((r) => `${r.used ? '* ' : '  '}${r.name}${r.card === 'empty' ? '' : consoleMessages.cardPresent[language]}`).join('\n'),
      );
      notes.push(readers.length > 0 ? eachLanguage((language) => consoleMessages.pcscReaders(list[language])[language]) : consoleMessages.noPcscReaderYet);
    } catch (error) {
      notes.push(eachLanguage((language) => consoleMessages.pcscProblem(failureText(error, language))[language]));
    }
    return { reader, name, made: [], notes };
  }
  const reader = new VirtualReader(config.dataDir);
  const made = config.demoMother ? ensureDemoCards(reader, config.demoMother) : [];
  const list = joinLocalised(made, '; ', '；');
  return { reader, name: virtualReaderName, made, notes: made.length > 0 ? [eachLanguage((language) => consoleMessages.demoCardsMade(list[language])[language])] : [] };
}
