import { Button, Space } from 'antd';
import type { CardStateAction } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import { allowedActions, stateActions } from './card-action-rules.ts';
import type { CardTableKind } from './card-table-kinds.ts';

export interface CardActionBarProps {
  kind: CardTableKind;
  /** The states of the selected cards. */
  selectedStates: number[];
  onIssue: () => void;
  onStateAction: (action: CardStateAction) => void;
  onRecycle: () => void;
  onRewrite: () => void;
  onSeek: () => void;
  onRecover: () => void;
}

/** The actions of a card table (spec §2): each enabled exactly when the selected cards allow it. */
export function CardActionBar({ kind, selectedStates, onIssue, onStateAction, onRecycle, onRewrite, onSeek, onRecover }: CardActionBarProps) {
  const { t } = useTranslation();
  const allowed = allowedActions(selectedStates);
  return (
    <Space wrap role="toolbar" aria-label={t('cardManagement.actions')} className="campus-card-actions">
      <Button type="primary" onClick={onIssue}>
        {t(kind === 'adminCards' ? 'cardManagement.action.issue' : 'cardManagement.action.addKeyCard')}
      </Button>
      {stateActions.map((action) => (
        <Button key={action} disabled={!allowed[action]} onClick={() => onStateAction(action)}>
          {t(`cardManagement.action.${action}`)}
        </Button>
      ))}
      <Button disabled={!allowed.recycle} onClick={onRecycle}>
        {t('cardManagement.action.recycle')}
      </Button>
      {kind === 'adminCards' ? (
        <Button disabled={!allowed.rewrite} onClick={onRewrite}>
          {t('cardManagement.action.rewrite')}
        </Button>
      ) : null}
      <Button onClick={onSeek}>{t('cardManagement.action.seek')}</Button>
      {kind === 'keyCards' ? <Button onClick={onRecover}>{t('cardManagement.action.recover')}</Button> : null}
    </Space>
  );
}
