import { Descriptions, Modal } from 'antd';
import type { BackupLogRow } from '@campus/contracts';
import { formatCount } from '@campus/subapp-sdk/numbers';
import { useTranslation } from '../../lib/use-translation.ts';
import { formatBackupTime, formatFileSize } from './backup-log-format.ts';

/** One backup log entry in full (spec §2 "Backup Log viewer and detail modal", §3 "Backup log row"). */
export function BackupLogDetailModal({ row, onClose }: { row: BackupLogRow | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const bytes = row ? formatCount(row.size, language) : '';
  return (
    <Modal title={t('backupLog.detailTitle')} open={row !== null} width={650} footer={null} onCancel={onClose} destroyOnHidden>
      {row ? (
        <Descriptions
          column={1}
          bordered
          size="small"
          styles={{ label: { width: 160 } }}
          items={[
            { key: 'logTime', label: t('backupLog.logTime'), children: formatBackupTime(row.logTime, language, true) },
            { key: 'name', label: t('backupLog.name'), children: row.name },
            { key: 'backupTime', label: t('backupLog.backupTime'), children: formatBackupTime(row.backupTime, language, true) },
            { key: 'filePath', label: t('backupLog.filePath'), children: row.filePath },
            { key: 'addr', label: t('backupLog.addr'), children: row.addr },
            { key: 'retentionDay', label: t('backupLog.retentionDay'), children: row.retentionDay },
            { key: 'size', label: t('backupLog.size'), children: t('backupLog.sizeWithBytes', { size: formatFileSize(row.size), bytes }) },
            { key: 'remarks', label: t('backupLog.remarks'), children: <span style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{row.remarks || '-'}</span> },
          ]}
        />
      ) : null}
    </Modal>
  );
}
