import { useEffect, useRef, useState } from 'react';
import { Button, Form, Input, Modal } from 'antd';
import { cardTimings } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import { CardFlowStatus } from '../../lib/cards/card-reader-dialog.tsx';
import type { FlowContext } from '../../lib/cards/card-flow.ts';
import { useCardFlow } from '../../lib/cards/use-card-flow.ts';
import { useRefreshCardTable } from './card-table-queries.ts';
import { checkRecoveryFlow, forgetRecovery, isWrongCustomerPassword, recoverSystemKeyFlow } from './recovery-flows.ts';
import type { RecoveryCheck } from './recovery-flows.ts';
import { useTokenRefusal } from './use-token-refusal.ts';

/** Where the recovery stands: reading and checking the key card, asking the customer password, or recovering. */
type Stage = 'check' | 'password' | 'recover';

/**
 * Recover the system key (docs/cards.md "Recovery"): the system key card in use on the reader, checked by the
 * server first ("this key card cannot recover the system"), then the customer password. A wrong password may be
 * typed again; Cancel or any other failure forgets the check on the server.
 */
export function RecoveryDialog({ onClosed }: { onClosed: (doneText: string | null) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ customerPassword: string }>();
  const { view, start, cancel } = useCardFlow();
  const [stage, setStage] = useState<Stage>('check');
  /** The server's word on the last password (wrong customer password), shown until the operator types again. */
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const check = useRef<RecoveryCheck | null>(null);
  const recovered = useRef(false);
  const refused = useTokenRefusal('keyCards');
  const refresh = useRefreshCardTable('keyCards');

  const run = async (flow: (ctx: FlowContext) => Promise<string>, onFailure?: (error: unknown) => void) => {
    let failure: unknown = null;
    const ok = await start(async (ctx) => {
      try {
        return await flow(ctx);
      } catch (error) {
        failure = error;
        throw error;
      }
    });
    if (!ok && failure !== null) onFailure?.(failure);
    return ok;
  };

  const runCheck = async () => {
    check.current = null;
    setStage('check');
    if (await run(checkRecoveryFlow((checked) => (check.current = checked)), refused)) setStage('password');
  };

  const recover = async ({ customerPassword }: { customerPassword: string }) => {
    const checked = check.current;
    if (!checked) return;
    setPasswordError(null);
    setStage('recover');
    const ok = await run(recoverSystemKeyFlow(checked, customerPassword), (error) => {
      if (refused(error)) return;
      if (isWrongCustomerPassword(error)) {
        // the check stays open on the server: type the password again
        form.setFieldsValue({ customerPassword: '' });
        setPasswordError(error instanceof Error ? error.message : null);
        setStage('password');
      } else {
        check.current = null;
      }
    });
    if (ok) recovered.current = true;
  };

  const close = () => {
    cancel();
    if (check.current && !recovered.current) void forgetRecovery(check.current);
    check.current = null;
    onClosed(recovered.current && view.kind === 'done' ? view.text : null);
    void refresh();
  };
  const latest = useRef({ close, runCheck });
  latest.current = { close, runCheck };

  // the dialog starts reading the card when it opens
  useEffect(() => {
    void latest.current.runCheck();
  }, []);

  useEffect(() => {
    if (stage !== 'recover' || view.kind !== 'done') return;
    const timer = setTimeout(() => latest.current.close(), cardTimings.issueDialogCloseMs);
    return () => clearTimeout(timer);
  }, [stage, view]);

  const failed = view.kind === 'failed';
  const footer =
    stage === 'password'
      ? [
          <Button key="cancel" onClick={close}>
            {t('common.cancel')}
          </Button>,
          <Button key="recover" type="primary" onClick={() => form.submit()}>
            {t('cardManagement.recovery.recover')}
          </Button>,
        ]
      : [
          <Button key="close" type={view.kind === 'done' ? 'primary' : 'default'} onClick={close}>
            {failed ? t('cardReader.close') : view.kind === 'done' ? t('common.confirm') : t('common.cancel')}
          </Button>,
          ...(failed
            ? [
                <Button key="again" type="primary" onClick={() => void runCheck()}>
                  {t('cardReader.tryAgain')}
                </Button>,
              ]
            : []),
        ];

  return (
    <Modal open title={t('cardManagement.recovery.title')} footer={footer} onCancel={close} mask={{ closable: false }} destroyOnHidden width={520}>
      {stage === 'check' ? <p>{t('cardManagement.recovery.placeKeyCard')}</p> : null}
      {stage === 'password' ? (
        <Form form={form} name="system-key-recovery" layout="vertical" onFinish={(values) => void recover(values)} onValuesChange={() => setPasswordError(null)}>
          <p role="status">{t('cardManagement.recovery.checked')}</p>
          <Form.Item
            name="customerPassword"
            label={t('cardSetup.init.customerPwd')}
            rules={[{ required: true, message: t('cardSetup.init.customerPwdRequired') }]}
            {...(passwordError ? { validateStatus: 'error' as const, help: passwordError } : {})}
          >
            <Input.Password autoFocus autoComplete="off" maxLength={64} />
          </Form.Item>
        </Form>
      ) : (
        <CardFlowStatus view={view} />
      )}
    </Modal>
  );
}
