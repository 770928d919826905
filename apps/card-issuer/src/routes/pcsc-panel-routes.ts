import type { FastifyInstance } from 'fastify';
import { languageOf, ok } from '../http/envelope.ts';
import type { CardReader } from '../readers/card-reader.ts';
import { ReaderError } from '../readers/card-reader.ts';
import type { PcscReader, PcscReaderView } from '../readers/pcsc/pcsc-reader.ts';
import { registerPanel } from './panel-routes.ts';

/** What the PC/SC panel needs of its driver. */
export type ReaderList = Pick<PcscReader, 'view'>;

export function listsReaders(reader: CardReader): reader is CardReader & ReaderList {
  return typeof (reader as Partial<ReaderList>).view === 'function';
}

/**
 * The PC/SC driver's panel API: the readers pcscd sees, or why it sees none (pcscd not running) in the caller's
 * language. Real cards are placed by hand, so it has nothing to post.
 */
export function registerPcscPanelRoutes(app: FastifyInstance, reader: ReaderList, ownOrigins: () => Set<string>): void {
  const route = { ...registerPanel(app, ownOrigins), schema: { tags: ['PC/SC reader'], summary: 'The readers pcscd lists, or why it lists none, in the caller’s language (panel only)' } };
  app.get('/reader/api/status', route, async (request) => {
    let readers: PcscReaderView[] = [];
    let problem: string | null = null;
    try {
      readers = reader.view();
    } catch (error) {
      if (!(error instanceof ReaderError)) throw error;
      problem = error.messageIn(languageOf(request));
    }
    return ok(request, { driver: 'pcsc', readers, problem });
  });
}
