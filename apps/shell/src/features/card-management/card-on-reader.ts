import type { CardReadReply } from '@campus/contracts';
import { cardIssuerPaths, readerCodes } from '@campus/contracts';
import { issuerCall } from '../../lib/cards/card-issuer.ts';
import { CardFlowError } from '../../lib/cards/card-flow.ts';
import { i18n } from '../../lib/i18n.ts';

/** The card a step wants, as the operator is told: an i18n key under cardManagement.wantedCard and its fixed number. */
export interface WantedCard {
  key: 'adminCardToRecycle' | 'keyCardToRecycle' | 'keyCardInUse';
  fixedNo?: string;
}

/** Reader codes that mean "not the card this step wants": the message then names both cards. */
const wrongCardCodes: readonly number[] = [readerCodes.wrongCardKind, readerCodes.differentCard, readerCodes.unknownCard, readerCodes.cardNotBlank];

const cardClasses = ['blank', 'unknown', 'mother', 'systemKey', 'adminLogin'];

/** What is on the reader, in words ("administrator login card DE000003"); null when it cannot be read. */
async function describeCardOnReader(): Promise<string | null> {
  try {
    const card = await issuerCall<CardReadReply>(cardIssuerPaths.readBaseInfo);
    const cardClass = cardClasses.includes(card.cardClass) ? card.cardClass : 'unknown';
    return i18n.t(`cardManagement.cardOnReader.${cardClass}`, { fixedNo: card.fixedNo });
  } catch {
    return null;
  }
}

/** The "wrong card" message naming the card on the reader and the one wanted (issue 25, item 11). */
export async function wrongCardError(wanted: WantedCard, code: number): Promise<CardFlowError> {
  const onReader = await describeCardOnReader();
  const wantedText = i18n.t(`cardManagement.wantedCard.${wanted.key}`, { fixedNo: wanted.fixedNo ?? '' });
  const message = onReader ? i18n.t('cardManagement.wrongCard', { onReader, wanted: wantedText }) : i18n.t('cardManagement.placeWantedCard', { wanted: wantedText });
  return new CardFlowError(message, code);
}

/** Runs a reader step; a "not this card" failure becomes the message that names both cards. */
export async function wantingCard<T>(wanted: WantedCard, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof CardFlowError && wrongCardCodes.includes(error.code)) throw await wrongCardError(wanted, error.code);
    throw error;
  }
}
