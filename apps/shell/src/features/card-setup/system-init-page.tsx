import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Form, Input } from 'antd';
import { cardTimings, codes, customerPasswordMinLength, isCommonCustomerPassword } from '@campus/contracts';
import type { GateSetupState, LanguageCode } from '@campus/contracts';
import { toLanguage } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import type { CardFlowError } from '../../lib/cards/card-flow.ts';
import type { CardFlow } from '../../lib/cards/card-reader-dialog.tsx';
import { messageInLanguage } from '../../lib/code-message.ts';
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
  [codes.customerPasswordWeak]: 'customerPwd',
  [codes.customerNoMismatch]: 'customerNo',
  [codes.customerNoOtherInstallation]: 'customerNo',
};

/** The server's refusal shown on a field, kept to be said again in the language the operator switches to. */
interface FieldFailure {
  field: keyof InitValues;
  code: number;
  message: string;
  language: LanguageCode;
}

function SystemInitForm({ state }: { state: GateSetupState }) {
  const { t, i18n } = useTranslation();
  const language = toLanguage(i18n.language);
  const [form] = Form.useForm<InitValues>();
  const [loading, setLoading] = useState(false);
  const [running, setRunning] = useState<CardFlow | null>(null);
  const [focusAfter, setFocusAfter] = useState<keyof InitValues | null>(null);
  const fieldFailure = useRef<FieldFailure | null>(null);

  // field messages were said in the language of the moment: say them again in the one switched to
  useEffect(() => {
    const failure = fieldFailure.current;
    if (failure && failure.language !== language) {
      form.setFields([{ name: failure.field, errors: [messageInLanguage(failure.code, failure.message, failure.language, language) ?? failure.message] }]);
      fieldFailure.current = { ...failure, message: form.getFieldError(failure.field)[0] ?? failure.message, language };
    }
    const checked = form.getFieldsError().filter((field) => field.errors.length > 0 && field.name[0] !== failure?.field).map((field) => field.name);
    if (checked.length > 0) void form.validateFields(checked).catch(() => undefined);
  }, [language, form]);
  const next = useGateStepPaths().masterCard;

  // focus the field to retype once the dialog has closed (the dialog gives focus back when it closes)
  useEffect(() => {
    if (running || !focusAfter) return;
    const timer = setTimeout(() => form.focusField(focusAfter), 0);
    setFocusAfter(null);
    return () => clearTimeout(timer);
  }, [running, focusAfter, form]);

  const execute = async () => {
    fieldFailure.current = null;
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
    fieldFailure.current = { field, code: error.code, message: error.message, language };
    setFocusAfter(field);
  };

  return (
    <>
      <Form
        form={form}
        layout="vertical"
        initialValues={{ customerNo: state.customerNo, customerPwd: '' }}
        onFinish={() => void execute()}
        onValuesChange={(changed: Partial<InitValues>) => {
          // a retyped field is checked again by its rules; the server's word on the old value is gone
          if (fieldFailure.current && fieldFailure.current.field in changed) fieldFailure.current = null;
        }}
      >
        <Form.Item
          name="customerNo"
          label={t('cardSetup.init.customerNo')}
          required
          rules={[{ validator: (_rule, value: string) => { const problem = customerNumberProblem(value ?? '', t); return problem ? Promise.reject(new Error(problem)) : Promise.resolve(); } }]}
        >
          <Input inputMode="numeric" autoComplete="off" maxLength={16} autoFocus />
        </Form.Item>
        <Form.Item
          name="customerPwd"
          label={t('cardSetup.init.customerPwd')}
          rules={[
            { required: true, message: t('cardSetup.init.customerPwdRequired') },
            // checked on the text, before it is hashed: the server sees only the digest (it checks the list too)
            { min: customerPasswordMinLength, message: t('cardSetup.init.customerPwdTooShort', { count: customerPasswordMinLength }) },
            { validator: (_rule, value: string) => (value && isCommonCustomerPassword(value) ? Promise.reject(new Error(t('cardSetup.init.customerPwdCommon'))) : Promise.resolve()) },
          ]}
        >
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
