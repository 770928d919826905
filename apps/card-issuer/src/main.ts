import { IssuerConfigError, loadIssuerConfig } from './config.ts';
import type { IssuerConfig } from './config.ts';
import { buildIssuer, issuerLoggerOptions } from './app.ts';
import { consoleMessages } from './console-messages.ts';
import { failureText } from './localised.ts';
import { detectPcLanguage } from './pc-language.ts';
import type { PcLanguage } from './pc-language.ts';
import { openReader } from './readers/reader-factory.ts';
import { runCardCommand } from './cli/card-commands.ts';

async function main(language: PcLanguage): Promise<void> {
  let config: IssuerConfig;
  try {
    config = loadIssuerConfig();
  } catch (error) {
    if (error instanceof IssuerConfigError) {
      process.stderr.write(`${error.localised[language]}\n${consoleMessages.seeReadme[language]}\n`);
      process.exit(2);
    }
    throw error;
  }
  const { reader, name, notes } = await openReader(config);
  const app = await buildIssuer({ config, reader, readerName: name, logger: issuerLoggerOptions, language });
  await app.listen({ host: config.host, port: config.port });
  const banner = consoleMessages.banner(config.port, name, config.dataDir, config.allowedOrigins.join(', '))[language];
  process.stdout.write(`\n${banner}\n${notes.map((note) => `${note[language]}\n`).join('')}\n`);
  let closing = false;
  const shutdown = (reason: string) => {
    if (closing) return;
    closing = true;
    process.stdout.write(`${consoleMessages.shuttingDown(reason)[language]}\n`);
    void app.close().finally(() => process.exit(0));
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  // under the Windows service (windows/supervisor.ts), which has no signals to send: its stop message, and its end
  if (process.send) {
    process.on('message', (message: unknown) => {
      if ((message as { campusIssuer?: unknown } | null)?.campusIssuer === 'stop') shutdown(consoleMessages.serviceStop[language]);
    });
    process.on('disconnect', () => shutdown(consoleMessages.serviceGone[language]));
  }
}

// the PC's language, asked once: everything the issuer prints from here on speaks it
const language = await detectPcLanguage();

// `card-issuer.mjs card <command>`: the card commands (`npm run card`) in a download, which has no npm scripts; the
// vendor formats a card and writes a customer's mother card on the operator's PC with them (docs/cards.md). The
// downloads start it as card.cmd (Windows) and ./start.sh card (Linux).
if (process.argv[2] === 'card') {
  const program = process.platform === 'win32' ? 'card.cmd' : './start.sh card';
  process.exit(await runCardCommand(process.argv.slice(3), { language, program }));
} else {
  main(language).catch((error: unknown) => {
    process.stderr.write(`${consoleMessages.startFailed(failureText(error, language))[language]}\n`);
    process.exit(1);
  });
}
