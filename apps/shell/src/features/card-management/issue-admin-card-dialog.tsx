import { useEffect, useState } from 'react';
import { Alert, Button, Form, Modal, Select, Space } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { CanIssueCardReply, PasswordComplexity } from '@campus/contracts';
import { apiPaths } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import type { CardFlow } from '../../lib/cards/card-reader-dialog.tsx';
import { apiGet } from '../../lib/request.ts';
import { CardPasswordFields } from '../../lib/cards/card-password-fields.tsx';
import { issueAdminCardFlow } from './card-flows.ts';
import { cardManagerCall, isTokenRefused, problemText } from './card-manager-calls.ts';
import { cardTableQueryKey, holderLabel, useCardFilterOptions } from './card-table-queries.ts';
import { ManagementReaderDialog } from './management-reader-dialog.tsx';
import { useTokenRefusal } from './use-token-refusal.ts';

interface IssueValues {
  oprtId: string;
  password: string;
  confirm: string;
}

/**
 * Issue an administrator login card (spec §2 "issue"): the system administrator, the card password and its
 * confirmation; Operator/IsCanIssueCard first (an administrator holds one card in use), then the reader dialog.
 * `onClosed` gets the success text, or null after Cancel.
 */
export function IssueAdminCardDialog({ onClosed }: { onClosed: (doneText: string | null) => void }) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<IssueValues>();
  const [flow, setFlow] = useState<CardFlow | null>(null);
  const [checking, setChecking] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const refused = useTokenRefusal('adminCards');
  const { operators } = useCardFilterOptions('adminCards');
  const complexity = useQuery({ queryKey: ['password-complexity', i18n.language], queryFn: () => apiGet<PasswordComplexity>(apiPaths.passwordComplexity), retry: false });
  const admins = operators.data ?? [];
  // spec §5: an administrator who cannot get a card now is told at once, and the confirm stays disabled
  const oprtId = Form.useWatch('oprtId', form);
  const chosen = admins.find((one) => one.id === oprtId);
  const canIssue = useQuery({
    queryKey: [...cardTableQueryKey('adminCards'), 'can-issue', oprtId],
    queryFn: async () => (await cardManagerCall<CanIssueCardReply>(apiPaths.operatorIsCanIssueCard, { oprtId })).data.canIssue,
    enabled: Boolean(oprtId),
    retry: false,
    staleTime: 0,
  });
  const holdsCard = Boolean(oprtId) && canIssue.data === false;
  const canIssueError = canIssue.isError && !isTokenRefused(canIssue.error) ? problemText(canIssue.error) : null;
  useEffect(() => {
    if (canIssue.isError) refused(canIssue.error);
  }, [canIssue.isError, canIssue.error, refused]);

  const issue = async (values: IssueValues) => {
    if (!complexity.data) return;
    const admin = admins.find((one) => one.id === values.oprtId);
    if (!admin) return;
    setFailure(null);
    setChecking(true);
    try {
      const { data } = await cardManagerCall<CanIssueCardReply>(apiPaths.operatorIsCanIssueCard, { oprtId: admin.id });
      if (!data.canIssue) {
        form.setFields([{ name: 'oprtId', errors: [t('cardManagement.issue.alreadyHasCard', { holder: holderLabel(admin) })] }]);
        return;
      }
    } catch (error) {
      if (!refused(error)) setFailure(problemText(error));
      return;
    } finally {
      setChecking(false);
    }
    const sealKey = complexity.data.sealKey;
    setFlow(() => issueAdminCardFlow({ oprtId: admin.id, holder: holderLabel(admin), password: values.password, sealKey }));
  };

  return (
    <Modal
      open
      title={t('cardManagement.issue.title')}
      onCancel={() => onClosed(null)}
      destroyOnHidden
      width={520}
      footer={null}
    >
      {failure ? <Alert type="error" showIcon role="alert" title={failure} style={{ marginBottom: 16 }} /> : null}
      {complexity.isError ? <Alert type="error" showIcon role="alert" title={problemText(complexity.error)} style={{ marginBottom: 16 }} /> : null}
      {operators.isError ? <Alert type="error" showIcon role="alert" title={problemText(operators.error)} style={{ marginBottom: 16 }} /> : null}
      {canIssueError ? <Alert type="error" showIcon role="alert" title={canIssueError} style={{ marginBottom: 16 }} /> : null}
      <Form form={form} name="admin-card-issue" layout="vertical" onFinish={(values) => void issue(values)}>
        <Form.Item
          name="oprtId"
          label={t('cardManagement.issue.operator')}
          rules={[{ required: true, message: t('cardManagement.issue.operatorRequired') }]}
          {...(holdsCard && chosen ? { validateStatus: 'error' as const, help: t('cardManagement.issue.alreadyHasCard', { holder: holderLabel(chosen) }) } : {})}
        >
          <Select
            autoFocus
            showSearch={{ optionFilterProp: 'label' }}
            loading={operators.isPending}
            options={admins.map((admin) => ({ value: admin.id, label: holderLabel(admin) }))}
            placeholder={t('cardManagement.issue.operatorPlaceholder')}
          />
        </Form.Item>
        <CardPasswordFields complexity={complexity.data} />
        <p>{t('cardManagement.placeBlank')}</p>
        <Space style={{ width: '100%', justifyContent: 'flex-end' }}>
          <Button onClick={() => onClosed(null)}>{t('common.cancel')}</Button>
          <Button type="primary" htmlType="submit" loading={checking} disabled={!complexity.data || operators.isPending || holdsCard || (Boolean(oprtId) && canIssue.isPending)}>
            {t('cardManagement.issue.submit')}
          </Button>
        </Space>
      </Form>
      {flow ? (
        <ManagementReaderDialog
          kind="adminCards"
          title={t('cardSetup.superAdmin.dialogTitle')}
          flow={flow}
          onClosed={(outcome) => {
            setFlow(null);
            if (outcome.ok) onClosed(outcome.text);
          }}
        />
      ) : null}
    </Modal>
  );
}
