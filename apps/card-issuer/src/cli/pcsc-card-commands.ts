import { classifyCard, makeMotherCard } from '@campus/card-crypto';
import { loadIssuerConfig } from '../config.ts';
import { loadPcscBinding } from '../readers/pcsc/pcsc-binding.ts';
import { PcscReader } from '../readers/pcsc/pcsc-reader.ts';
import { cardFileSize } from '../readers/pcsc/card-file-layout.ts';
import type { MotherCardInput } from '@campus/card-crypto';

export const pcscUsage = `Commands (a PC/SC reader through pcscd; CARD_READER_NAME and CARD_FILE_ID as for the issuer):
  pcsc-readers                  the readers pcscd sees and whether a card is on them
  pcsc-read                     the fixed number and kind of the card on the reader
  pcsc-format                   make the card's data file CARD_FILE_ID (${cardFileSize} bytes) on a card that has none
  pcsc-mother --customer-no N --customer-pwd P [--sys-key-code HEX32]
                                write the vendor's mother card for a customer onto the blank card on the reader`;

export const pcscCommands = new Set(['pcsc-readers', 'pcsc-read', 'pcsc-format', 'pcsc-mother']);

/** The pcsc-… commands of `npm run card` (the card issuer need not run; stop it if it holds the reader). */
export async function runPcscCommand(command: string, mother: () => MotherCardInput, env: NodeJS.ProcessEnv, out: (line: string) => void): Promise<void> {
  const config = loadIssuerConfig({ ...env, CARD_READER: 'pcsc' });
  const reader = new PcscReader({ binding: await loadPcscBinding(), readerName: config.readerName, fileId: config.fileId });
  try {
    switch (command) {
      case 'pcsc-readers': {
        const readers = reader.view();
        if (readers.length === 0) out('no PC/SC reader is plugged in');
        for (const r of readers) {
          const card = r.card === 'empty' ? 'no card' : r.card === 'mute' ? 'card not answering' : `card present, ATR ${r.atr ?? '?'}`;
          out(`${r.used ? '*' : ' '} ${r.name}: ${card}`);
        }
        return;
      }
      case 'pcsc-read': {
        const card = await reader.read();
        out(`card ${card.fixedNo}: ${classifyCard(card.image)}`);
        return;
      }
      case 'pcsc-format': {
        const made = await reader.format();
        out(made ? `made data file ${config.fileId.toString(16).padStart(4, '0').toUpperCase()} (${cardFileSize} bytes) on the card` : 'the card has its data file already');
        return;
      }
      case 'pcsc-mother': {
        const input = mother();
        const card = await reader.read();
        const kind = classifyCard(card.image);
        if (kind !== 'blank') throw new Error(`the card ${card.fixedNo} on the reader is not blank (${kind}): place a blank card`);
        await reader.write(card.fixedNo, makeMotherCard(input));
        out(`wrote mother card ${card.fixedNo} for customer ${input.customerNo}`);
        return;
      }
      default:
        throw new Error(`unknown command "${command}"`);
    }
  } finally {
    await reader.close();
  }
}
