// The commands of `npm run card` (card.ts) and of the downloads' `card-issuer.mjs card` (main.ts): they put cards on
// the virtual reader, take them off, make blank cards and the vendor's mother card for a customer, and make the next
// read or write fail (docs/cards.md). They work on the data folder directly, so the card issuer need not run; a
// running issuer sees every change at once. The pcsc-… commands do the vendor's part on a real reader
// (pcsc-card-commands.ts).
import path from 'node:path';
import { parseArgs } from 'node:util';
import { makeMotherCard, sm3Hex } from '@campus/card-crypto';
import type { MotherCardInput } from '@campus/card-crypto';
import type { Localised, ReaderCode } from '@campus/contracts';
import { readerCodes } from '@campus/contracts';
import { customerNoProblem } from '../customer-number.ts';
import { LocalisedError, failureText } from '../localised.ts';
import { detectPcLanguage } from '../pc-language.ts';
import type { PcLanguage } from '../pc-language.ts';
import { ReaderError } from '../readers/card-reader.ts';
import { cardFileSize } from '../readers/pcsc/card-file-layout.ts';
import { VirtualReader } from '../readers/virtual-reader.ts';
import type { FaultOperation } from '../readers/virtual-reader.ts';
import { cardCommandMessages as say } from './card-command-messages.ts';
import { pcscCommands, runPcscCommand } from './pcsc-card-commands.ts';

/** How the card commands speak: the PC's language, and the command line that starts them (for the help). */
export interface CardCommandOptions {
  language?: PcLanguage;
  /** `npm run card --` from the source, card.cmd or ./start.sh card in a download. */
  program?: string;
}

class UsageError extends LocalisedError {}

const knownCodes = new Set<number>(Object.values(readerCodes).filter((c) => c !== 0));

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'data-dir': { type: 'string' },
        'fixed-no': { type: 'string' },
        'customer-no': { type: 'string' },
        'customer-pwd': { type: 'string' },
        'sys-key-code': { type: 'string' },
        place: { type: 'boolean' },
        op: { type: 'string' },
        code: { type: 'string' },
        times: { type: 'string' },
        help: { type: 'boolean' },
      },
    });
  } catch (error) {
    // node's own words (which option, what is wrong) inside the PC's language
    throw new UsageError(say.optionsNotUnderstood(error instanceof Error ? error.message : String(error)));
  }
}

/** The mother card the options describe (spec §5 customer number rules). */
function motherFrom(values: ReturnType<typeof parse>['values']): MotherCardInput {
  const customerNo = values['customer-no'] ?? '';
  const problem = customerNoProblem(customerNo);
  if (problem) throw new UsageError(problem);
  const password = values['customer-pwd'] ?? '';
  if (password === '') throw new UsageError(say.customerPasswordMissing);
  const code = values['sys-key-code'];
  if (code !== undefined && !/^[0-9a-fA-F]{32}$/.test(code)) throw new UsageError(say.sysKeyCodeNotHex);
  return { customerNo, customerPwdDigest: sm3Hex(password), sysKeyCode: code === undefined ? undefined : Buffer.from(code, 'hex') };
}

/** The pcsc-… commands (a real reader, asynchronous); null for a virtual reader command. */
export function runPcscCardCli(argv: string[], env: NodeJS.ProcessEnv = process.env, out: (line: string) => void = console.log, options: CardCommandOptions = {}): Promise<void> | null {
  const { values, positionals } = parse(argv);
  const command = positionals[0];
  if (values.help || command === undefined || !pcscCommands.has(command)) return null;
  return runPcscCommand(command, () => motherFrom(values), env, (line) => out(line[options.language ?? 'en-US']));
}

export function runCardCli(argv: string[], env: NodeJS.ProcessEnv = process.env, out: (line: string) => void = console.log, options: CardCommandOptions = {}): void {
  const language = options.language ?? 'en-US';
  const tell = (line: Localised) => out(line[language]);
  const { values, positionals } = parse(argv);
  const [command, ...rest] = positionals;
  if (values.help || command === undefined) {
    tell(say.usage(options.program ?? 'npm run card --', cardFileSize));
    if (command === undefined && !values.help) throw new UsageError(say.noCommand);
    return;
  }
  const dataDir = path.resolve(values['data-dir'] ?? env.CARD_ISSUER_DATA_DIR ?? path.join('data', 'card-issuer'));
  const reader = new VirtualReader(dataDir);
  const placeIf = (fixedNo: string) => {
    if (values.place) {
      reader.place(fixedNo);
      tell(say.onReader(fixedNo));
    }
  };

  switch (command) {
    case 'list': {
      const cards = reader.list();
      if (cards.length === 0) tell(say.noCardsYet(reader.folder));
      for (const card of cards) out(`${card.onReader ? '*' : ' '} ${card.fixedNo}  ${say.cardKinds[card.kind][language]}`);
      return;
    }
    case 'place': {
      const fixedNo = rest[0];
      if (!fixedNo) throw new UsageError(say.placeNeedsFixedNo);
      reader.place(fixedNo);
      tell(say.onReader(fixedNo.toUpperCase()));
      return;
    }
    case 'remove':
      reader.remove();
      tell(say.readerEmpty);
      return;
    case 'blank': {
      const fixedNo = reader.addCard(undefined, values['fixed-no']);
      tell(say.madeBlank(fixedNo));
      placeIf(fixedNo);
      return;
    }
    case 'mother': {
      const input = motherFrom(values);
      const fixedNo = reader.addCard(makeMotherCard(input), values['fixed-no']);
      tell(say.madeMother(fixedNo, input.customerNo));
      placeIf(fixedNo);
      return;
    }
    case 'fail': {
      const op = values.op;
      if (op !== 'read' && op !== 'write') throw new UsageError(say.failNeedsOp);
      const code = Number(values.code);
      if (!knownCodes.has(code)) throw new UsageError(say.notAReaderCode([...knownCodes].join(', ')));
      const times = values.times === undefined ? 1 : Number(values.times);
      reader.failNext(op as FaultOperation, code as ReaderCode, times);
      tell(times === 1 ? say.nextFails(say.operations[op][language], code) : say.nextTimesFail(times, say.operations[`${op}s`][language], code));
      return;
    }
    default:
      throw new UsageError(say.unknownCommand(command));
  }
}

/**
 * Runs one command line in the PC's language (asked here unless given); answers the exit code (1: the reader
 * failed, 2: a wrong command line or another error).
 */
export async function runCardCommand(
  argv: string[],
  options: CardCommandOptions & { env?: NodeJS.ProcessEnv; out?: (line: string) => void; err?: (text: string) => void } = {},
): Promise<number> {
  const { env = process.env, out = console.log, err = (text: string) => process.stderr.write(text) } = options;
  const language = options.language ?? (await detectPcLanguage(env));
  const program = options.program ?? 'npm run card --';
  try {
    const pcsc = runPcscCardCli(argv, env, out, { language, program });
    if (pcsc) await pcsc;
    else runCardCli(argv, env, out, { language, program });
    return 0;
  } catch (error) {
    err(`card: ${failureText(error, language)}\n`);
    if (error instanceof UsageError) err(`${say.helpHint(program)[language]}\n`);
    return error instanceof ReaderError ? 1 : 2;
  }
}
