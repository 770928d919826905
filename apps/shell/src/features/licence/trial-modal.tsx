import { Alert, Button, Checkbox, Form, Input, Modal, Spin, Typography } from 'antd';
import type { GetProps } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { AddTrialLicenceRequest, LicenceApp } from '@campus/contracts';
import { apiPaths, digestModeFor, licenceLimits, licenceModalWidths } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import { apiPost } from '../../lib/request.ts';
import { passwordDigest } from '../../lib/crypto.ts';
import * as storage from '../../lib/storage.ts';
import { formatLicenceDate } from './licence-display.ts';
import { LoadFailedAlert } from '../../lib/load-failed-alert.tsx';
import { useFinalSubmit } from './use-final-submit.ts';

export interface TrialModalProps {
  open: boolean;
  onClose: () => void;
  /** After a successful registration (the caller signs out). */
  onRegistered: () => Promise<void>;
}

interface TrialValues {
  appIds: string[];
  password: string;
}

const dayMs = 86_400_000;

/**
 * A required checkbox group under a Form.Item: the form marks its child aria-required, which a role=group may not
 * carry (axe, critical). The group is named by its label instead, and the rule's message says what is missing.
 */
function RequiredCheckboxGroup({ name, ...props }: GetProps<typeof Checkbox.Group> & { name: string; 'aria-required'?: unknown }) {
  const { 'aria-required': _required, ...rest } = props;
  return <Checkbox.Group {...rest} aria-label={name} />;
}

/**
 * Register Trial Licence (spec §2, §5, §9; width 1015): the applications the trial covers (at least one),
 * the administrator's password (Register stays disabled until it is filled), a 30-day period from today.
 * The password goes as the sign-in digest (SHA-256, SM3 on gate deployments).
 */
export function TrialModal({ open, onClose, onRegistered }: TrialModalProps) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<TrialValues>();
  const password = Form.useWatch('password', form);
  const { sending, failure, submit: send, reset } = useFinalSubmit({ failedKey: 'licence.trial.failed', succeededKey: 'licence.trial.succeeded', onDone: onRegistered });

  const apps = useQuery({
    queryKey: ['licence-apps'],
    queryFn: () => apiPost<LicenceApp[] | null>(apiPaths.licenceAppList),
    enabled: open,
    retry: false,
  });

  // days of the licence calendar, as the licence's row will show them once registered
  const today = Date.now();
  const period = t('licence.trial.period', {
    begin: formatLicenceDate(today, i18n.language),
    end: formatLicenceDate(today + licenceLimits.trialDays * dayMs, i18n.language),
    days: licenceLimits.trialDays,
  });

  const submit = (values: TrialValues) =>
    send(async () => {
      const mode = digestModeFor(storage.tenantSettings.get()?.mjSystem ?? 1);
      const body: AddTrialLicenceRequest = { appIds: values.appIds, oprtPwd: await passwordDigest(values.password, mode) };
      await apiPost(apiPaths.addTrialLicence, body);
    });

  return (
    <Modal
      title={t('licence.trial.title')}
      open={open}
      width={licenceModalWidths.trial}
      onCancel={() => {
        if (!sending) onClose();
      }}
      afterClose={() => {
        form.resetFields();
        reset();
      }}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose} disabled={sending}>
          {t('licence.cancel')}
        </Button>,
        <Button key="submit" type="primary" htmlType="submit" disabled={!password} loading={sending}>
          {t('licence.trial.submit')}
        </Button>,
      ]}
      modalRender={(dom) => (
        <Form<TrialValues> form={form} name="trial-licence" layout="vertical" onFinish={(values) => void submit(values)}>
          {dom}
        </Form>
      )}
    >
      {failure ? <Alert type="error" showIcon title={failure} style={{ marginBottom: 12 }} /> : null}
      <Typography.Paragraph>{period}</Typography.Paragraph>
      {apps.isPending ? <Spin size="small" /> : null}
      {apps.isError ? (
        <LoadFailedAlert title={t('licence.trial.appsFailed')} style={{ marginBottom: 12 }} onRetry={() => void apps.refetch()} />
      ) : null}
      <Form.Item name="appIds" label={t('licence.trial.apps')} rules={[{ required: true, type: 'array', min: 1, message: t('licence.trial.appsRequired') }]}>
        <RequiredCheckboxGroup name={t('licence.trial.apps')} disabled={sending} options={(apps.data ?? []).map((app) => ({ label: app.appName, value: app.appId }))} />
      </Form.Item>
      <Form.Item name="password" label={t('licence.trial.password')}>
        <Input.Password autoComplete="current-password" disabled={sending} />
      </Form.Item>
    </Modal>
  );
}
