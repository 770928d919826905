import type { FastifyInstance } from 'fastify';
import { classifyCard } from '@campus/card-crypto';
import type { Localised } from '@campus/contracts';
import { readerCodes, shellVersion } from '@campus/contracts';
import { languageOf, ok } from '../http/envelope.ts';
import type { CardReader } from '../readers/card-reader.ts';
import { ReaderError } from '../readers/card-reader.ts';
import type { PcscReader, PcscReaderView } from '../readers/pcsc/pcsc-reader.ts';
import type { ReaderLock } from '../reader-lock.ts';
import { registerPanel } from './panel-routes.ts';

/** What the PC/SC panel needs of its driver. */
export type ReaderList = Pick<PcscReader, 'view'>;

export function listsReaders(reader: CardReader): reader is CardReader & ReaderList {
  return typeof (reader as Partial<ReaderList>).view === 'function';
}

export interface PcscPanelOptions {
  /** CARD_READER_NAME: the reader to use (its name or the start of it), or null for the first one. */
  wantedReader: string | null;
  /** The card routes' lock: the panel's read is one card operation like theirs. */
  lock: ReaderLock;
}

/** Why the panel lists readers but none is in use, or none at all, in the three languages. */
const whyNoReader = {
  noneListed: (): Localised => ({
    'en-US': 'the smart-card service sees no card reader: plug the reader in (USB); it shows here within a few seconds',
    'zh-CN': '智能卡服务没有看到任何读卡器：请连接读卡器（USB），几秒钟内它会显示在这里',
    'zh-MO': '智能卡服務沒有看到任何讀卡器：請連接讀卡器（USB），幾秒鐘內它會顯示在這裡',
  }),
  noneMatches: (name: string): Localised => ({
    'en-US': `none of these readers is the one CARD_READER_NAME names ("${name}"): plug that reader in, or set CARD_READER_NAME to the name (or the start of the name) of one listed here and start the card issuer again`,
    'zh-CN': `这些读卡器都不是 CARD_READER_NAME 指定的读卡器（"${name}"）：请连接该读卡器，或将 CARD_READER_NAME 设为这里列出的某个读卡器的名称（或名称开头），然后重新启动发卡器`,
    'zh-MO': `這些讀卡器都不是 CARD_READER_NAME 指定的讀卡器（"${name}"）：請連接該讀卡器，或將 CARD_READER_NAME 設為這裡列出的某個讀卡器的名稱（或名稱開頭），然後重新啟動發卡器`,
  }),
};

/**
 * The PC/SC driver's panel API: the readers the PC's smart-card service sees (pcscd, or Windows' Smart Card
 * service), the card on each, and why there are none or none is used, in the caller's language; and a read of the
 * card on the reader in use, so that the panel shows its fixed number and kind. Real cards are placed by hand.
 */
export function registerPcscPanelRoutes(app: FastifyInstance, reader: CardReader & ReaderList, ownOrigins: () => Set<string>, options: PcscPanelOptions): void {
  const guard = registerPanel(app, ownOrigins);
  const described = (summary: string) => ({ ...guard, schema: { tags: ['PC/SC reader'], summary } });

  app.get('/reader/api/status', described('The readers the smart-card service lists, the card on each, or why it lists none, in the caller’s language (panel only)'), async (request) => {
    const language = languageOf(request);
    let readers: PcscReaderView[] = [];
    let problem: string | null = null;
    try {
      readers = reader.view();
    } catch (error) {
      if (!(error instanceof ReaderError)) throw error;
      problem = error.messageIn(language);
    }
    if (problem === null && readers.length === 0) problem = new ReaderError(readerCodes.readerNotConnected, whyNoReader.noneListed()).messageIn(language);
    if (problem === null && options.wantedReader !== null && !readers.some((r) => r.used)) problem = new ReaderError(readerCodes.readerNotConnected, whyNoReader.noneMatches(options.wantedReader)).messageIn(language);
    return ok(request, { driver: 'pcsc', version: shellVersion, platform: process.platform, wantedReader: options.wantedReader, readers, problem });
  });

  app.post('/reader/api/read', described('Reads the card on the reader in use: its fixed number and kind, or the reader code of why it cannot be used (panel only)'), async (request) => {
    const card = await options.lock.run(() => reader.read());
    return ok(request, { fixedNo: card.fixedNo, kind: classifyCard(card.image) });
  });
}
