import { useState } from 'react';
import { Modal } from 'antd';
import type { CardStateAction } from '@campus/contracts';
import { cardStateRules } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import { problemText } from './card-manager-calls.ts';
import { applyStateAction, useRefreshCardTable } from './card-table-queries.ts';
import type { CardRow, CardTableKind } from './card-table-kinds.ts';
import { cardTableKinds } from './card-table-kinds.ts';
import { useTokenRefusal } from './use-token-refusal.ts';
import { useOwnSessionEnd } from './own-session-end.ts';

/** How an action ended, for the line above the table. */
export type ActionOutcome = { type: 'success' | 'error'; text: string };

export interface StateActionConfirmProps {
  kind: CardTableKind;
  action: CardStateAction;
  cards: CardRow[];
  /** The call ended (success or refusal), or the operator said no (null). */
  onClosed: (outcome: ActionOutcome | null) => void;
}

/** The fixed numbers of the cards, as the confirmation and the result name them. */
export const cardList = (cards: readonly CardRow[]) => cards.map((card) => card.fixedNo).join(', ');

/**
 * The confirmation of a state action (spec §4: each asks first; damage confirms that the card is damaged and has
 * been recovered), then the call with the selected cards. A refusal shows the server's message (238 names the card).
 */
export function StateActionConfirm({ kind, action, cards, onClosed }: StateActionConfirmProps) {
  const { t } = useTranslation();
  const [sending, setSending] = useState(false);
  const refused = useTokenRefusal(kind);
  const ownSessionEnded = useOwnSessionEnd();
  const refresh = useRefreshCardTable(kind);
  const cardsText = cardList(cards);
  const signsOut = cardTableKinds[kind].holderSignedOut && cardStateRules[action].endsSessions;

  const confirm = async () => {
    setSending(true);
    let outcome: ActionOutcome;
    try {
      await applyStateAction(kind, action, cards.map((card) => card.id));
      outcome = { type: 'success', text: t(`cardManagement.done.${action}`, { cards: cardsText }) };
      if (signsOut && (await ownSessionEnded(action))) return;
    } catch (error) {
      if (refused(error)) return;
      outcome = { type: 'error', text: problemText(error) };
    } finally {
      setSending(false);
    }
    // the states as they now are, also after a refusal (another administrator may have acted meanwhile)
    void refresh();
    onClosed(outcome);
  };

  return (
    <Modal
      open
      title={t(`cardManagement.action.${action}`)}
      okText={t(`cardManagement.action.${action}`)}
      cancelText={t('common.cancel')}
      okButtonProps={{ danger: action === 'damage' || action === 'loss' || action === 'freeze', autoFocus: true }}
      confirmLoading={sending}
      onOk={() => void confirm()}
      onCancel={() => (sending ? undefined : onClosed(null))}
      destroyOnHidden
    >
      {/* key cards do not sign anyone in: their texts say what a key card does */}
      <p>{t(kind === 'keyCards' ? `cardManagement.confirmKeyCard.${action}` : `cardManagement.confirm.${action}`, { cards: cardsText, count: cards.length })}</p>
      {signsOut ? <p>{t('cardManagement.confirm.holderSignedOut', { count: cards.length })}</p> : null}
    </Modal>
  );
}
