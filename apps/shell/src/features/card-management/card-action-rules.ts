import type { CardStateAction } from '@campus/contracts';
import { cardStates, cardStateRules, mayApply, mayRecycle } from '@campus/contracts';

/** The state actions, in the order of the toolbar. */
export const stateActions = Object.keys(cardStateRules) as CardStateAction[];

/** The actions on selected cards: the state actions of spec §4, and the reader actions on one card. */
export type SelectionAction = CardStateAction | 'recycle' | 'rewrite';

/**
 * Which actions the selected cards (their states) allow. The buttons mirror the server's rules: the state
 * actions are `mayApply` of the shared table; recycling and writing again take one card on the reader, recycling
 * from in use or frozen (`mayRecycle`), writing again only a card in use.
 */
export function allowedActions(states: readonly number[]): Record<SelectionAction, boolean> {
  const one = states.length === 1 ? states[0]! : null;
  return {
    loss: mayApply('loss', states),
    unLoss: mayApply('unLoss', states),
    freeze: mayApply('freeze', states),
    unFreeze: mayApply('unFreeze', states),
    damage: mayApply('damage', states),
    recycle: one !== null && mayRecycle(one),
    rewrite: one === cardStates.inUse,
  };
}
