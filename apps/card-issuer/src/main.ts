import { IssuerConfigError, loadIssuerConfig } from './config.ts';
import type { IssuerConfig } from './config.ts';
import { buildIssuer, issuerLoggerOptions } from './app.ts';
import { openReader } from './readers/reader-factory.ts';
import { runCardCommand } from './cli/card-commands.ts';

async function main(): Promise<void> {
  let config: IssuerConfig;
  try {
    config = loadIssuerConfig();
  } catch (error) {
    if (error instanceof IssuerConfigError) {
      process.stderr.write(`${error.message}\nSee the README, "Card issuer".\n`);
      process.exit(2);
    }
    throw error;
  }
  const { reader, name, notes } = await openReader(config);
  const app = await buildIssuer({ config, reader, readerName: name, logger: issuerLoggerOptions });
  await app.listen({ host: config.host, port: config.port });
  process.stdout.write(
    `\nCard issuer: http://127.0.0.1:${config.port}/ (${name}; cards in ${config.dataDir})\n` +
      `Answers the shell at: ${config.allowedOrigins.join(', ')}\n` +
      notes.map((note) => `${note}\n`).join('') +
      '\n',
  );
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    process.stdout.write(`${signal}: card issuer shutting down\n`);
    void app.close().finally(() => process.exit(0));
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  // under the Windows service (windows/supervisor.ts), which has no signals to send: its stop message, and its end
  if (process.send) {
    process.on('message', (message: unknown) => {
      if ((message as { campusIssuer?: unknown } | null)?.campusIssuer === 'stop') shutdown('service stop');
    });
    process.on('disconnect', () => shutdown('service gone'));
  }
}

// `card-issuer.mjs card <command>`: the card commands (`npm run card`) in a download, which has no npm scripts; the
// vendor formats a card and writes a customer's mother card on the operator's PC with them (docs/cards.md)
if (process.argv[2] === 'card') {
  process.exit(await runCardCommand(process.argv.slice(3)));
} else {
  main().catch((error: unknown) => {
    process.stderr.write(`Card issuer start-up failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
