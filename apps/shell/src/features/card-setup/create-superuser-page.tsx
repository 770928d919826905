import { useState } from 'react';
import { Alert, Button, Form, Input } from 'antd';
import { Navigate, useSearchParams } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import type { PasswordComplexity, SuperAdmin } from '@campus/contracts';
import { apiPaths, codes } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import type { CardFlow } from '../../lib/cards/card-reader-dialog.tsx';
import { GateScreenFrame, useGateStepPaths } from '../../lib/gate-screen-frame.tsx';
import { SetupStepDialog } from './setup-step-dialog.tsx';
import { apiGet, apiPost, RequestError } from '../../lib/request.ts';
import { superAdminCardFlow } from './setup-flows.ts';
import { CardPasswordFields } from '../../lib/cards/card-password-fields.tsx';

interface Values {
  password: string;
  confirm: string;
}

/** The super administrator's card: account, card password and confirm, then the reader dialog; `next` after success. */
export function SuperAdminIssue({ next }: { next?: string }) {
  const { t, i18n } = useTranslation();
  const steps = useGateStepPaths();
  const [params] = useSearchParams();
  const [form] = Form.useForm<Values>();
  const [flow, setFlow] = useState<CardFlow | null>(null);
  const fromQuery = params.get('account')?.trim() ?? '';
  const admin = useQuery({
    queryKey: ['gate-super-admin'],
    queryFn: () => apiPost<SuperAdmin>(apiPaths.getSuperAdmin, {}, { useMasterToken: true }),
    retry: false,
  });
  const complexity = useQuery({ queryKey: ['password-complexity', i18n.language], queryFn: () => apiGet<PasswordComplexity>(apiPaths.passwordComplexity), retry: false });

  const account = fromQuery || admin.data?.no || '';

  const issue = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values || !complexity.data) return;
    const sealKey = complexity.data.sealKey;
    setFlow(() => superAdminCardFlow(values.password, sealKey));
  };

  if (admin.error instanceof RequestError && admin.error.code === codes.masterCardTokenInvalid) return <Navigate to={steps.masterCard} replace />;

  return (
    <>
      {admin.isError ? (
        <Alert type="error" showIcon title={admin.error instanceof Error ? admin.error.message : t('request.internalError')} style={{ marginBottom: 16 }} />
      ) : null}
      <Form form={form} layout="vertical" onFinish={() => void issue()}>
        <Form.Item label={t('cardSetup.superAdmin.account')} htmlFor="gate-super-admin-account">
          <Input id="gate-super-admin-account" value={account} readOnly aria-readonly="true" />
        </Form.Item>
        <CardPasswordFields complexity={complexity.data} autoFocus />
        <p>{t('cardSetup.superAdmin.placeBlank')}</p>
        <Button type="primary" htmlType="submit" block disabled={!account || !complexity.data}>
          {t('cardSetup.superAdmin.issue')}
        </Button>
      </Form>
      {flow ? <SetupStepDialog title={t('cardSetup.superAdmin.dialogTitle')} flow={flow} next={next ?? steps.login} onClosed={() => setFlow(null)} /> : null}
    </>
  );
}

/** /create-superuser and /key-card-create-superuser (spec §2): the system administrator's login card. */
export default function CreateSuperuserPage({ titleKey = 'cardSetup.screens.createSuperuser' }: { titleKey?: string }) {
  return <GateScreenFrame screen="superAdminCard" titleKey={titleKey}>{() => <SuperAdminIssue />}</GateScreenFrame>;
}
