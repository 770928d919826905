// The commands of `npm run card` (card.ts) and of the downloads' `card-issuer.mjs card` (main.ts): they put cards on
// the virtual reader, take them off, make blank cards and the vendor's mother card for a customer, and make the next
// read or write fail (docs/cards.md). They work on the data folder directly, so the card issuer need not run; a
// running issuer sees every change at once. The pcsc-… commands do the vendor's part on a real reader
// (pcsc-card-commands.ts).
import path from 'node:path';
import { parseArgs } from 'node:util';
import { makeMotherCard, sm3Hex } from '@campus/card-crypto';
import type { MotherCardInput } from '@campus/card-crypto';
import type { ReaderCode } from '@campus/contracts';
import { readerCodes } from '@campus/contracts';
import { customerNoProblem } from '../customer-number.ts';
import { ReaderError } from '../readers/card-reader.ts';
import { VirtualReader } from '../readers/virtual-reader.ts';
import type { FaultOperation } from '../readers/virtual-reader.ts';
import { pcscCommands, pcscUsage, runPcscCommand } from './pcsc-card-commands.ts';

const usage = `Usage: npm run card -- <command> [options]

Commands (the virtual reader of the card issuer):
  list                          the cards and which one is on the reader
  place <fixedNo>               put a card on the reader (taking off any other)
  remove                        take the card off the reader
  blank [--fixed-no X] [--place]
                                make a new blank card (a random fixed number unless given)
  mother --customer-no N --customer-pwd P [--sys-key-code HEX32] [--fixed-no X] [--place]
                                make the vendor's mother card for a customer (spec §5 customer number rules)
  fail --op read|write --code C [--times N]
                                make the next N reads or writes fail with reader code C (990481, 990321, 990322, …)

${pcscUsage}

Options:
  --data-dir DIR                the card issuer's data folder (default: CARD_ISSUER_DATA_DIR, else ./data/card-issuer)
  --help                        this text
`;

class UsageError extends Error {}

const knownCodes = new Set<number>(Object.values(readerCodes).filter((c) => c !== 0));

function parse(argv: string[]) {
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
}

/** The mother card the options describe (spec §5 customer number rules). */
function motherFrom(values: ReturnType<typeof parse>['values']): MotherCardInput {
  const customerNo = values['customer-no'] ?? '';
  const problem = customerNoProblem(customerNo);
  if (problem) throw new UsageError(problem);
  const password = values['customer-pwd'] ?? '';
  if (password === '') throw new UsageError('please enter the customer password (--customer-pwd)');
  const code = values['sys-key-code'];
  if (code !== undefined && !/^[0-9a-fA-F]{32}$/.test(code)) throw new UsageError('--sys-key-code must be 32 hex digits');
  return { customerNo, customerPwdDigest: sm3Hex(password), sysKeyCode: code === undefined ? undefined : Buffer.from(code, 'hex') };
}

/** The pcsc-… commands (a real reader, asynchronous); null for a virtual reader command. */
export function runPcscCardCli(argv: string[], env: NodeJS.ProcessEnv = process.env, out: (line: string) => void = console.log): Promise<void> | null {
  const { values, positionals } = parse(argv);
  const command = positionals[0];
  if (values.help || command === undefined || !pcscCommands.has(command)) return null;
  return runPcscCommand(command, () => motherFrom(values), env, out);
}

export function runCardCli(argv: string[], env: NodeJS.ProcessEnv = process.env, out: (line: string) => void = console.log): void {
  const { values, positionals } = parse(argv);
  const [command, ...rest] = positionals;
  if (values.help || command === undefined) {
    out(usage);
    if (command === undefined && !values.help) throw new UsageError('no command given');
    return;
  }
  const dataDir = path.resolve(values['data-dir'] ?? env.CARD_ISSUER_DATA_DIR ?? path.join('data', 'card-issuer'));
  const reader = new VirtualReader(dataDir);
  const placeIf = (fixedNo: string) => {
    if (values.place) {
      reader.place(fixedNo);
      out(`card ${fixedNo} is on the reader`);
    }
  };

  switch (command) {
    case 'list': {
      const cards = reader.list();
      if (cards.length === 0) out(`no cards yet in ${reader.folder}`);
      for (const card of cards) out(`${card.onReader ? '*' : ' '} ${card.fixedNo}  ${card.kind}`);
      return;
    }
    case 'place': {
      const fixedNo = rest[0];
      if (!fixedNo) throw new UsageError('place needs the fixed number of a card (see: list)');
      reader.place(fixedNo);
      out(`card ${fixedNo.toUpperCase()} is on the reader`);
      return;
    }
    case 'remove':
      reader.remove();
      out('the reader is empty');
      return;
    case 'blank': {
      const fixedNo = reader.addCard(undefined, values['fixed-no']);
      out(`made blank card ${fixedNo}`);
      placeIf(fixedNo);
      return;
    }
    case 'mother': {
      const input = motherFrom(values);
      const fixedNo = reader.addCard(makeMotherCard(input), values['fixed-no']);
      out(`made mother card ${fixedNo} for customer ${input.customerNo}`);
      placeIf(fixedNo);
      return;
    }
    case 'fail': {
      const op = values.op;
      if (op !== 'read' && op !== 'write') throw new UsageError('fail needs --op read or --op write');
      const code = Number(values.code);
      if (!knownCodes.has(code)) throw new UsageError(`--code must be a reader code: ${[...knownCodes].join(', ')}`);
      const times = values.times === undefined ? 1 : Number(values.times);
      reader.failNext(op as FaultOperation, code as ReaderCode, times);
      out(`the next ${times === 1 ? op : `${times} ${op}s`} will fail with ${code}`);
      return;
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

/** Runs one command line; answers the exit code (1: the reader failed, 2: a wrong command line or another error). */
export async function runCardCommand(argv: string[], env: NodeJS.ProcessEnv = process.env, out: (line: string) => void = console.log, err: (text: string) => void = (text) => process.stderr.write(text)): Promise<number> {
  try {
    const pcsc = runPcscCardCli(argv, env, out);
    if (pcsc) await pcsc;
    else runCardCli(argv, env, out);
    return 0;
  } catch (error) {
    err(`card: ${error instanceof Error ? error.message : String(error)}\n`);
    if (error instanceof UsageError) err('Run "npm run card -- --help" for the commands.\n');
    return error instanceof ReaderError ? 1 : 2;
  }
}
