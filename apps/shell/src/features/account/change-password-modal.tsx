import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Form, Input, message, Modal } from 'antd';
import type { InputRef } from 'antd';
import { useNavigate } from 'react-router-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChangePasswordRequest, PasswordComplexity } from '@campus/contracts';
import { apiPaths, codes, digestModeFor } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import { apiGet, apiPost, RequestError } from '../../lib/request.ts';
import { passwordDigest } from '../../lib/crypto.ts';
import { sealPassword } from '../../lib/password-seal.ts';
import * as storage from '../../lib/storage.ts';
import { logout } from '../../lib/session.ts';
import { checkConfirm, checkNewPassword, checkOriginal, policyFrom, problemText, type RuleProblem } from '../../lib/password-rules.ts';
import { LoadFailedAlert } from '../../lib/load-failed-alert.tsx';
import { CardReaderDialog } from '../../lib/cards/card-reader-dialog.tsx';
import type { CardFlow } from '../../lib/cards/card-reader-dialog.tsx';
import { useUserDetail } from '../../lib/user-detail.ts';
import { cardTimings } from '@campus/contracts';
import { cardPasswordFlow } from './card-password-flow.ts';
import { returnFocus } from '../../lib/focus-return.ts';

export interface ChangePasswordModalProps {
  open: boolean;
  /** No close icon, no Cancel, Esc and mask click do nothing; 'Quit' logs out instead (spec §4 reading A). */
  forced: boolean;
  /** Why the password must change, shown above the fields. */
  notice: string | null;
  /** Called when the user cancels (not forced) and after success or Quit. */
  onClose: () => void;
}

interface FormValues {
  original: string;
  newPassword: string;
  confirm: string;
}

type FieldName = keyof FormValues;

/** Server failures that belong to one field, and what must be retyped after them. */
const fieldFailures: Partial<Record<number, { field: FieldName; clear: FieldName[] }>> = {
  [codes.oldPasswordWrong]: { field: 'original', clear: ['original'] },
  [codes.passwordPolicy]: { field: 'newPassword', clear: ['newPassword', 'confirm'] },
  [codes.passwordReused]: { field: 'newPassword', clear: ['newPassword', 'confirm'] },
};

/** The password-policy call (regex, tip, seal key); the tip is in the caller's language. */
function usePasswordComplexity(enabled: boolean, language: string) {
  return useQuery({
    queryKey: ['password-complexity', language],
    queryFn: () => apiGet<PasswordComplexity>(apiPaths.passwordComplexity),
    enabled,
    retry: false,
  });
}

/**
 * Change Password (spec §2 "Modals", §5, §7): original, new and confirm. The new password is checked
 * against the server's regex, sent as two digests plus the new password sealed to the server's SM2 key.
 * Success revokes every session of the user, so the shell logs out and opens /login.
 */
export function ChangePasswordModal({ open, forced, notice, onClose }: ChangePasswordModalProps) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [newPasswordErrors, setNewPasswordErrors] = useState<string[]>([]);
  const [focusAfterFailure, setFocusAfterFailure] = useState<FieldName | null>(null);
  const [cardFlow, setCardFlow] = useState<CardFlow | null>(null);
  const originalField = useRef<InputRef>(null);
  // only a card-login administrator needs his card's id (the layout has usually loaded it already)
  const user = useUserDetail(open && storage.cardLoginFlag.get());

  const complexity = usePasswordComplexity(open, i18n.language);
  const policy = useMemo(() => policyFrom(complexity.data), [complexity.data]);
  const translate = (problem: RuleProblem | null): Promise<void> => (problem ? Promise.reject(new Error(problemText(problem, t))) : Promise.resolve());

  // a policy that arrives late, or a language switch, re-checks what already shows a message or was typed
  useEffect(() => {
    if (!open) return;
    const names = form
      .getFieldsError()
      .filter((field) => field.errors.length > 0 || (field.name[0] === 'newPassword' && form.isFieldTouched('newPassword')))
      .map((field) => field.name);
    if (names.length > 0) form.validateFields(names).catch(() => {});
  }, [open, policy, t, form]);

  useEffect(() => {
    if (sending || !focusAfterFailure) return;
    form.focusField(focusAfterFailure);
    setFocusAfterFailure(null);
  }, [sending, focusAfterFailure, form]);

  const leave = async () => {
    await logout();
    queryClient.clear();
    onClose();
    await navigate('/login', { replace: true });
  };

  const cancel = () => {
    if (forced || sending) return;
    form.resetFields();
    setFailure(null);
    onClose();
  };

  const quit = async () => {
    setSending(true);
    await leave();
  };

  const showFailure = (error: unknown) => {
    const code = error instanceof RequestError ? error.code : null;
    const onField = code === null ? undefined : fieldFailures[code];
    if (onField && error instanceof Error) {
      form.setFields([
        ...onField.clear.map((name) => ({ name, value: '', errors: [] as string[] })),
        { name: onField.field, errors: [error.message] },
      ]);
      setFocusAfterFailure(onField.field);
    } else if (code === null) {
      // network and HTTP failures are rejected silently by the request layer: say it here
      setFailure(t('account.changeFailed'));
    }
    // other business codes: the request layer's toast already shows the server's message
  };

  const submit = async (values: FormValues) => {
    if (sending) return;
    const sealKey = complexity.data?.sealKey;
    if (!sealKey) {
      setFailure(t('account.policyUnavailable'));
      return;
    }
    setSending(true);
    setFailure(null);
    try {
      const mode = digestModeFor(storage.tenantSettings.get()?.mjSystem ?? 1);
      const [oprtPwd, oprtNewPwd, sealedNewPwd] = await Promise.all([
        passwordDigest(values.original, mode),
        passwordDigest(values.newPassword, mode),
        sealPassword(values.newPassword, sealKey),
      ]);
      // a card-login administrator's password lives with his card: the reader dialog changes it (spec §4)
      // the user detail names the card of this sign-in (cardId); fetched now if the dialog was faster
      const detail = storage.cardLoginFlag.get() ? (user.data ?? (await user.refetch()).data) : undefined;
      if (detail?.cardId) {
        const change = { cardId: detail.cardId, oprtNo: detail.code, oldDigest: oprtPwd, newDigest: oprtNewPwd, sealedNew: sealedNewPwd };
        setCardFlow(() => cardPasswordFlow(change));
        return;
      }
      const body: ChangePasswordRequest = { oprtPwd, oprtNewPwd, sealedNewPwd };
      await apiPost(apiPaths.changePassword, body);
    } catch (error) {
      setSending(false);
      showFailure(error);
      return;
    }
    // static message: it outlives this layout, so it is still shown on /login
    void message.success(t('account.changed'));
    await leave();
  };

  const okButton = (
    <Button key="ok" type="primary" htmlType="submit" loading={sending} disabled={!complexity.data && !complexity.isError}>
      {t('account.submit')}
    </Button>
  );
  const footer = forced
    ? [
        <Button key="quit" onClick={() => void quit()} disabled={sending}>
          {t('account.quit')}
        </Button>,
        okButton,
      ]
    : [
        <Button key="cancel" onClick={cancel} disabled={sending}>
          {t('account.cancel')}
        </Button>,
        okButton,
      ];

  const tipIsShownAsError = policy.tip !== '' && newPasswordErrors.includes(policy.tip);

  return (
    <Modal
      open={open}
      title={t('account.title')}
      width={480}
      footer={footer}
      closable={!forced}
      keyboard={!forced}
      mask={{ closable: !forced }}
      onCancel={cancel}
      focusable={{ focusTriggerAfterClose: false }}
      // antd gives the focus to Close once the dialog has opened: the first field takes it, unless the user is
      // already typing in a field
      afterOpenChange={(visible) => {
        if (visible && !(document.activeElement instanceof HTMLInputElement)) originalField.current?.focus();
      }}
      afterClose={() => {
        returnFocus();
        form.resetFields();
        setFailure(null);
        setNewPasswordErrors([]);
      }}
      modalRender={(dom) => (
        // the footer sits inside the form, so Enter in any field submits through the OK button
        <Form<FormValues>
          form={form}
          name="change-password"
          layout="vertical"
          onFinish={(values) => void submit(values)}
          onValuesChange={(changed: Partial<FormValues>, values: FormValues) => {
            // a new password that becomes valid re-checks a confirm already typed (spec §5); not from
            // inside the validator, where it would outdate a running submit
            if ('newPassword' in changed && values.confirm && !checkNewPassword(changed.newPassword, policy)) {
              form.validateFields(['confirm']).catch(() => {});
            }
          }}
          onFieldsChange={(changed) => {
            const field = changed.find((entry) => Array.isArray(entry.name) && entry.name[0] === 'newPassword');
            if (field) setNewPasswordErrors(field.errors ?? []);
          }}
        >
          {dom}
        </Form>
      )}
    >
      {notice ? <Alert type={forced ? 'warning' : 'info'} showIcon title={notice} style={{ marginBottom: 16 }} /> : null}
      {complexity.isError ? (
        <LoadFailedAlert title={t('account.policyUnavailable')} onRetry={() => void complexity.refetch()} style={{ marginBottom: 16 }} />
      ) : null}
      {failure ? <Alert type="error" showIcon title={failure} style={{ marginBottom: 16 }} /> : null}
      <Form.Item
        name="original"
        label={t('account.originalPassword')}
        required
        validateTrigger="onBlur"
        rules={[{ validator: (_rule, value: string | undefined) => translate(checkOriginal(value)) }]}
      >
        <Input.Password ref={originalField} autoComplete="current-password" autoFocus disabled={sending} />
      </Form.Item>
      <Form.Item
        name="newPassword"
        label={t('account.newPassword')}
        required
        extra={policy.tip && !tipIsShownAsError ? policy.tip : undefined}
        rules={[{ validator: (_rule, value: string | undefined) => translate(checkNewPassword(value, policy)) }]}
      >
        <Input.Password autoComplete="new-password" disabled={sending} />
      </Form.Item>
      <Form.Item
        name="confirm"
        label={t('account.confirmPassword')}
        required
        rules={[{ validator: (_rule, value: string | undefined) => translate(checkConfirm(value, form.getFieldValue('newPassword') as string | undefined)) }]}
      >
        <Input.Password autoComplete="new-password" disabled={sending} />
      </Form.Item>
      {cardFlow ? (
        <CardReaderDialog
          open
          title={t('account.cardDialogTitle')}
          flow={cardFlow}
          autoCloseMs={cardTimings.passwordChangedCloseMs}
          onClose={async (outcome) => {
            setCardFlow(null);
            if (outcome.ok) {
              void message.success(outcome.text);
              await leave();
              return;
            }
            setSending(false);
            if (outcome.code === codes.oldPasswordWrong) {
              form.setFields([{ name: 'original', value: '', errors: [t('account.cardOldPasswordWrong')] }]);
              setFocusAfterFailure('original');
            }
          }}
        />
      ) : null}
    </Modal>
  );
}
