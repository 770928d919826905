// `npm run card -- <command>`: the card commands (card-commands.ts; docs/cards.md) from the source.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCardCommand } from './card-commands.ts';

export { runCardCli, runPcscCardCli } from './card-commands.ts';

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exit(await runCardCommand(process.argv.slice(2), { program: 'npm run card --' }));
