import { useEffect, useState } from 'react';
import { Alert, Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { cardTimings, codes } from '@campus/contracts';
import type { GateSetupState } from '@campus/contracts';
import type { CardFlowError } from '../../lib/card-flow.ts';
import type { CardFlow } from '../../lib/card-reader-dialog.tsx';
import { GateScreenFrame, useGateStepPaths } from '../../lib/gate-screen-frame.tsx';
import { SetupStepDialog } from './setup-step-dialog.tsx';
import { customerNumberProblem } from './customer-number.ts';
import { systemInitFlow } from './setup-flows.ts';

interface InitValues {
  customerNo: string;
  customerPwd: string;
}

/** Server refusals the operator fixes by retyping a field: the message goes on that field. */
const fieldOfFailure: Partial<Record<number, keyof InitValues>> = {
  [codes.customerPasswordWrong]: 'customerPwd',
  [codes.customerNoMismatch]: 'customerNo',
  [codes.customerNoOtherInstallation]: 'customerNo',
};

function SystemInitForm({ state }: { state: GateSetupState }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<InitValues>();
  const [loading, setLoading] = useState(false);
  const [running, setRunning] = useState<CardFlow | null>(null);
  const [focusAfter, setFocusAfter] = useState<keyof InitValues | null>(null);
  const next = useGateStepPaths().masterCard;

  // focus the field to retype once the dialog has closed (the dialog gives focus back when it closes)
  useEffect(() => {
    if (running || !focusAfter) return;
    const timer = setTimeout(() => form.focusField(focusAfter), 0);
    setFocusAfter(null);
    return () => clearTimeout(timer);
  }, [running, focusAfter, form]);

  const execute = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    // spec §2: the button shows loading for 3 s and opens the progress dialog
    setLoading(true);
    setRunning(() => systemInitFlow(values.customerNo.trim(), values.customerPwd));
    setTimeout(() => setLoading(false), cardTimings.initButtonLoadingMs);
  };

  const onFailureClosed = (error: CardFlowError) => {
    const field = fieldOfFailure[error.code];
    if (!field) return;
    // a wrong customer password is cleared for retyping; a customer number is kept to be corrected
    form.setFields([{ name: field, errors: [error.message], ...(field === 'customerPwd' ? { value: '' } : {}) }]);
    setFocusAfter(field);
  };

  return (
    <>
      <Form form={form} layout="vertical" initialValues={{ customerNo: state.customerNo, customerPwd: '' }} onFinish={() => void execute()}>
        <Form.Item
          name="customerNo"
          label={t('cardSetup.init.customerNo')}
          rules={[{ validator: (_rule, value: string) => { const problem = customerNumberProblem(value ?? '', t); return problem ? Promise.reject(new Error(problem)) : Promise.resolve(); } }]}
        >
          <Input inputMode="numeric" autoComplete="off" maxLength={16} autoFocus />
        </Form.Item>
        <Form.Item name="customerPwd" label={t('cardSetup.init.customerPwd')} rules={[{ required: true, message: t('cardSetup.init.customerPwdRequired') }]}>
          <Input.Password autoComplete="off" maxLength={64} />
        </Form.Item>
        <Alert type="info" showIcon title={t('cardSetup.init.note')} style={{ marginBottom: 16 }} />
        <Button type="primary" htmlType="submit" loading={loading} block>
          {t('cardSetup.init.execute')}
        </Button>
      </Form>
      {running ? (
        <SetupStepDialog
          title={t('cardSetup.init.dialogTitle')}
          flow={running}
          next={next}
          onFailureClosed={onFailureClosed}
          onClosed={() => {
            setRunning(null);
            setLoading(false);
          }}
        />
      ) : null}
    </>
  );
}

/** /system-init and /key-card-system-init (spec §2): the mother card receives the new system key. */
export default function SystemInitPage({ titleKey = 'cardSetup.screens.systemInit' }: { titleKey?: string }) {
  return <GateScreenFrame screen="systemInit" titleKey={titleKey}>{(state) => <SystemInitForm state={state} />}</GateScreenFrame>;
}
