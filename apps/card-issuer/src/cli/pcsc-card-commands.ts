import { classifyCard, makeMotherCard } from '@campus/card-crypto';
import type { MotherCardInput } from '@campus/card-crypto';
import type { Localised } from '@campus/contracts';
import { loadIssuerConfig } from '../config.ts';
import { LocalisedError, eachLanguage } from '../localised.ts';
import { cardFileSize } from '../readers/pcsc/card-file-layout.ts';
import { loadPcscBinding } from '../readers/pcsc/pcsc-binding.ts';
import { PcscReader } from '../readers/pcsc/pcsc-reader.ts';
import { cardCommandMessages as say } from './card-command-messages.ts';

export const pcscCommands = new Set(['pcsc-readers', 'pcsc-read', 'pcsc-format', 'pcsc-mother']);

/** The pcsc-… commands of `npm run card` (the card issuer need not run; stop it if it holds the reader). */
export async function runPcscCommand(command: string, mother: () => MotherCardInput, env: NodeJS.ProcessEnv, out: (line: Localised) => void): Promise<void> {
  const config = loadIssuerConfig({ ...env, CARD_READER: 'pcsc' });
  const reader = new PcscReader({ binding: await loadPcscBinding(), readerName: config.readerName, fileId: config.fileId });
  try {
    switch (command) {
      case 'pcsc-readers': {
        const readers = reader.view();
        if (readers.length === 0) out(say.noPcscReader);
        for (const r of readers) {
          const card = r.card === 'empty' ? say.noCard : r.card === 'mute' ? say.cardMute : say.cardWithAtr(r.atr ?? '?');
          out(eachLanguage((language) => `${r.used ? '*' : ' '} ${say.readerState(r.name, card[language])[language]}`));
        }
        return;
      }
      case 'pcsc-read': {
        const card = await reader.read();
        const kind = say.cardKinds[classifyCard(card.image)];
        out(eachLanguage((language) => say.cardRead(card.fixedNo, kind[language])[language]));
        return;
      }
      case 'pcsc-format': {
        const made = await reader.format();
        out(made ? say.madeDataFile(config.fileId.toString(16).padStart(4, '0').toUpperCase(), cardFileSize) : say.hasDataFile);
        return;
      }
      case 'pcsc-mother': {
        const input = mother();
        const card = await reader.read();
        const kind = classifyCard(card.image);
        if (kind !== 'blank') throw new LocalisedError(eachLanguage((language) => say.notBlank(card.fixedNo, say.cardKinds[kind][language])[language]));
        await reader.write(card.fixedNo, makeMotherCard(input));
        out(say.wroteMother(card.fixedNo, input.customerNo));
        return;
      }
      default:
        throw new LocalisedError(say.unknownCommand(command));
    }
  } finally {
    await reader.close();
  }
}
