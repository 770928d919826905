import { useState } from 'react';
import { Alert, Button, List, message, Modal, Typography, Upload } from 'antd';
import type { UploadFile } from 'antd';
import { CheckCircleFilled, CloseCircleFilled, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from '../../lib/use-translation.ts';
import { readableColors } from '../../lib/readable-colors.ts';
import { useQueryClient } from '@tanstack/react-query';
import type { LicenceUploadResult } from '@campus/contracts';
import { apiPaths, licenceLimits, licenceModalWidths } from '@campus/contracts';
import { apiPostForm } from '../../lib/request.ts';

export interface LicenceUploadModalProps {
  open: boolean;
  onClose: () => void;
  /** Go on to activate an uploaded licence. */
  onActivate: (id: string) => void;
}

/** What refuses a picked file before anything is sent: null when it may be sent. */
export function refusal(file: { name: string; size: number }, alreadyPicked: number): { key: string; values: Record<string, unknown> } | null {
  if (!file.name.toLowerCase().endsWith('.lic')) return { key: 'licence.upload.notLic', values: { name: file.name } };
  if (file.size > licenceLimits.maxFileBytes) return { key: 'licence.upload.tooLarge', values: { name: file.name } };
  if (alreadyPicked >= licenceLimits.maxFilesPerUpload) return { key: 'licence.upload.tooMany', values: { count: licenceLimits.maxFilesPerUpload } };
  return null;
}

/**
 * 'licence add - upload file' (spec §2, §5; width 650): .lic files only, several at once, nothing sent until
 * Next; then each file's result, and from an uploaded one the way on to its activation.
 */
export function LicenceUploadModal({ open, onClose, onActivate }: LicenceUploadModalProps) {
  const { t } = useTranslation();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [sending, setSending] = useState(false);
  const [failed, setFailed] = useState(false);
  const [results, setResults] = useState<LicenceUploadResult[] | null>(null);
  const queries = useQueryClient();

  const reset = () => {
    setFiles([]);
    setSending(false);
    setFailed(false);
    setResults(null);
  };

  const next = async () => {
    if (files.length === 0 || sending) return;
    const form = new FormData();
    for (const file of files) form.append('files', file.originFileObj ?? (file as unknown as File), file.name);
    setSending(true);
    setFailed(false);
    try {
      const reply = await apiPostForm<LicenceUploadResult[] | null>(apiPaths.licenceUpload, form);
      setResults(Array.isArray(reply) ? reply : []);
      // the Licences tab behind the dialog shows the new licences at once
      if (Array.isArray(reply) && reply.some((result) => result.ok)) void queries.invalidateQueries({ queryKey: ['licences'] });
    } catch {
      setFailed(true);
    } finally {
      setSending(false);
    }
  };

  const footer = results
    ? [
        <Button key="more" onClick={reset}>
          {t('licence.upload.more')}
        </Button>,
        <Button key="close" type="primary" onClick={onClose}>
          {t('licence.close')}
        </Button>,
      ]
    : [
        <Button key="cancel" onClick={onClose} disabled={sending}>
          {t('licence.cancel')}
        </Button>,
        <Button key="next" type="primary" disabled={files.length === 0} loading={sending} onClick={() => void next()}>
          {t('licence.upload.next')}
        </Button>,
      ];

  return (
    <Modal
      title={t('licence.upload.title')}
      open={open}
      width={licenceModalWidths.upload}
      footer={footer}
      onCancel={() => {
        if (!sending) onClose();
      }}
      afterClose={reset}
      destroyOnHidden
    >
      {results ? (
        <List<LicenceUploadResult>
          header={t('licence.upload.results')}
          dataSource={results}
          renderItem={(result) => (
            <List.Item
              actions={
                result.ok && result.id
                  ? [
                      <Button
                        key="activate"
                        type="link"
                        size="small"
                        aria-label={t('licence.upload.activateOf', { name: result.fileName })}
                        onClick={() => onActivate(result.id!)}
                      >
                        {t('licence.upload.activate')}
                      </Button>,
                    ]
                  : []
              }
            >
              <List.Item.Meta
                avatar={result.ok ? <CheckCircleFilled style={{ color: readableColors.success }} /> : <CloseCircleFilled style={{ color: readableColors.error }} />}
                title={result.fileName}
                description={<Typography.Text type={result.ok ? 'success' : 'danger'}>{result.ok ? t('licence.upload.uploaded') : result.msg}</Typography.Text>}
              />
            </List.Item>
          )}
        />
      ) : (
        <>
          {failed ? <Alert type="error" showIcon title={t('licence.upload.failed')} style={{ marginBottom: 12 }} /> : null}
          <Upload
            accept=".lic"
            multiple
            fileList={files}
            disabled={sending}
            beforeUpload={(file, batch) => {
              const problem = refusal(file, files.length + batch.indexOf(file));
              if (problem) {
                void message.error(t(problem.key, problem.values));
                return Upload.LIST_IGNORE;
              }
              return false;
            }}
            onChange={({ fileList }) => setFiles(fileList.filter((file) => file.status !== 'error'))}
          >
            <Button icon={<UploadOutlined />} disabled={sending}>
              {t('licence.upload.pick')}
            </Button>
          </Upload>
          <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
            {t('licence.upload.hint')}
          </Typography.Paragraph>
        </>
      )}
    </Modal>
  );
}
