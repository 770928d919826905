import { codes } from '@campus/contracts';
import { AppError } from '../../http/envelope.ts';

/** Card states of spec §4 "Card states" (docs/cards.md). */
export const cardStates = { notIssued: 10, inUse: 20, recycled: 30, lost: 40, damaged: 60, frozen: 80 } as const;

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
