import type { AdminLoginCardRow, CardStateAction, SystemKeyCardRow } from '@campus/contracts';
import { apiPaths, cardIssuerPaths } from '@campus/contracts';
import { managementMasterCardPaths } from '../../lib/gate-setup.ts';

/** The two card management tables of gate deployments (spec §2): administrator login cards and system key cards. */
export type CardTableKind = 'adminCards' | 'keyCards';

/** A row of either table; the administrator's fields only on administrator login cards. */
export type CardRow = SystemKeyCardRow & Partial<Pick<AdminLoginCardRow, 'oprtNo' | 'oprtName' | 'oprtId' | 'num'>>;

export interface CardTableKindConfig {
  titleKey: string;
  /** Checkboxes where an action takes several cards ({ids}), a radio where it takes one ({id}). */
  selection: 'checkbox' | 'radio';
  /** The body of a state action for the selected cards. */
  stateActionBody: (ids: string[]) => unknown;
  /** Whether a state action takes the card's holder out of his sessions (administrator cards only). */
  holderSignedOut: boolean;
  /** Where a refused token sends the operator: the mother-card swipe that comes back here. */
  masterCardPath: string;
  paths: {
    stateList: string;
    kindList: string;
    search: string;
    seek: string;
    stateActions: Record<CardStateAction, string>;
    getRecycleData: string;
    recycle: string;
  };
  /** The card issuer's checks and clearing of this kind of card (recycle). */
  issuer: { checkCanClear: string; clear: string };
}

/** One place for what differs between the two tables. */
export const cardTableKinds: Record<CardTableKind, CardTableKindConfig> = {
  adminCards: {
    titleKey: 'cardSetup.screens.systemadminLogincard',
    selection: 'checkbox',
    stateActionBody: (ids) => ({ ids }),
    holderSignedOut: true,
    masterCardPath: managementMasterCardPaths.adminCards,
    paths: {
      stateList: apiPaths.adminCardStateList,
      kindList: apiPaths.adminCardKindList,
      search: apiPaths.adminCardSearch,
      seek: apiPaths.adminCardSeek,
      stateActions: {
        loss: apiPaths.adminCardLoss,
        unLoss: apiPaths.adminCardUnLoss,
        freeze: apiPaths.adminCardFreeze,
        unFreeze: apiPaths.adminCardUnFreeze,
        damage: apiPaths.adminCardDamage,
      },
      getRecycleData: apiPaths.adminCardGetRecycleData,
      recycle: apiPaths.adminCardRecycle,
    },
    issuer: { checkCanClear: cardIssuerPaths.checkOprtLoginCardCanClear, clear: cardIssuerPaths.clearOprtLoginCard },
  },
  keyCards: {
    titleKey: 'cardSetup.screens.systemKeycard',
    selection: 'radio',
    stateActionBody: (ids) => ({ id: ids[0] }),
    holderSignedOut: false,
    masterCardPath: managementMasterCardPaths.keyCards,
    paths: {
      stateList: apiPaths.keyCardStateList,
      kindList: apiPaths.keyCardKindList,
      search: apiPaths.keyCardSearch,
      seek: apiPaths.keyCardSeek,
      stateActions: {
        loss: apiPaths.keyCardLoss,
        unLoss: apiPaths.keyCardUnLoss,
        freeze: apiPaths.keyCardFreeze,
        unFreeze: apiPaths.keyCardUnFreeze,
        damage: apiPaths.keyCardDamage,
      },
      getRecycleData: apiPaths.keyCardGetRecycleData,
      recycle: apiPaths.keyCardRecycle,
    },
    issuer: { checkCanClear: cardIssuerPaths.checkSystemKeyCardCanClear, clear: cardIssuerPaths.clearSystemKeyCard },
  },
};
