import { cardStateLabel, cardStates, codes } from '@campus/contracts';
import type { LanguageCode } from '@campus/contracts';
import { AppError } from '../../http/envelope.ts';

export { cardStates };

/** States in which a card is out in the world as issued (a set-up step that issued it is done). */
export const issuedStates: readonly number[] = [cardStates.inUse, cardStates.lost, cardStates.frozen];

/** A card row whose fixed number may be issued again: none, or recycled. */
export function mayIssueOnto(state: number | undefined): boolean {
  return state === undefined || state === cardStates.recycled || state === cardStates.notIssued;
}

/** Only a card in use may sign in or prove anything: the code of every other state. */
export function requireInUse(state: number): void {
  if (state === cardStates.inUse) return;
  if (state === cardStates.lost) throw new AppError(codes.cardLost);
  if (state === cardStates.frozen) throw new AppError(codes.cardFrozen);
  throw new AppError(codes.cardNotInUse);
}

/** Who manages cards: a signed-in system administrator of a tenant, or a master-card swipe (for a tenant). */
export interface CardActor {
  tenantCode: string;
  account: string;
  userId: string | null;
}

/** cardActionNotAllowed for a card whose state the action does not start from (nothing is changed). */
export function actionNotAllowed(fixedNo: string, state: number, language: LanguageCode): AppError {
  return new AppError(codes.cardActionNotAllowed, { values: { fixedNo, state: cardStateLabel(state, language) } });
}
