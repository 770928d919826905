import { describe, expect, it } from 'vitest';
import { cardStates } from '@campus/contracts';
import { allowedActions, stateActions } from './card-action-rules.ts';

const { notIssued, inUse, recycled, lost, damaged, frozen } = cardStates;
const enabled = (states: number[]) =>
  Object.entries(allowedActions(states))
    .filter(([, on]) => on)
    .map(([action]) => action)
    .sort();

describe('which actions the selected cards allow (spec §4 "Card states")', () => {
  it('nothing selected: no action on selected cards', () => {
    expect(enabled([])).toEqual([]);
  });

  it('cards in use: loss and freeze for any number of them; damage, recycle and write again for one', () => {
    expect(enabled([inUse])).toEqual(['damage', 'freeze', 'loss', 'recycle', 'rewrite']);
    expect(enabled([inUse, inUse, inUse])).toEqual(['freeze', 'loss']);
  });

  it('a mixed selection allows only what every card allows', () => {
    expect(enabled([inUse, lost])).toEqual([]);
    expect(enabled([inUse, frozen])).toEqual([]);
    expect(enabled([lost, lost])).toEqual(['unLoss']);
    expect(enabled([frozen, frozen])).toEqual(['unFreeze']);
    expect(enabled([lost, frozen])).toEqual([]);
  });

  it('unloss needs lost cards, unfreeze frozen ones; damage one card not 10, 30 or 60; recycle one in use or frozen', () => {
    expect(enabled([lost])).toEqual(['damage', 'unLoss']);
    expect(enabled([frozen])).toEqual(['damage', 'recycle', 'unFreeze']);
    for (const state of [notIssued, recycled, damaged]) expect(enabled([state]), String(state)).toEqual([]);
  });

  it('the toolbar shows the five state actions of the shared rule table', () => {
    expect(stateActions).toEqual(['loss', 'unLoss', 'freeze', 'unFreeze', 'damage']);
  });
});
