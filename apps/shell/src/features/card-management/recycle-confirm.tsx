import { Modal } from 'antd';
import { useTranslation } from '../../lib/use-translation.ts';
import type { CardRow, CardTableKind } from './card-table-kinds.ts';

/**
 * Recycling blanks the card on the reader and cannot be undone: the operator confirms it first (WCAG 3.3.4). The
 * server still refuses the tenant's last administrator card in use (code 244).
 */
export function RecycleConfirm({ kind, card, onConfirm, onCancel }: { kind: CardTableKind; card: CardRow; onConfirm: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      title={t('cardManagement.action.recycle')}
      okText={t('cardManagement.action.recycle')}
      cancelText={t('common.cancel')}
      okButtonProps={{ danger: true }}
      onOk={onConfirm}
      onCancel={onCancel}
      destroyOnHidden
    >
      <p>{t(kind === 'adminCards' ? 'cardManagement.recycle.confirmAdmin' : 'cardManagement.recycle.confirmKey', { fixedNo: card.fixedNo })}</p>
    </Modal>
  );
}
