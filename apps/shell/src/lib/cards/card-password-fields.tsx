import { Form, Input } from 'antd';
import type { PasswordComplexity } from '@campus/contracts';
import { useTranslation } from '../use-translation.ts';
import { checkNewPassword, policyFrom, problemText } from '../password-rules.ts';

/**
 * The card password of a new administrator login card and its confirmation (form fields `password` and `confirm`):
 * required, the server's password policy with its tip, the same twice. One rule for the set-up wizard and the
 * card management dialog.
 */
export function CardPasswordFields({ complexity, autoFocus = false }: { complexity: PasswordComplexity | undefined; autoFocus?: boolean }) {
  const { t } = useTranslation();
  const policy = policyFrom(complexity);
  return (
    <>
      <Form.Item
        name="password"
        label={t('cardSetup.superAdmin.password')}
        rules={[
          { required: true, message: t('cardSetup.superAdmin.passwordRequired') },
          {
            validator: (_rule, value: string) => {
              const problem = value ? checkNewPassword(value, policy) : null;
              return problem ? Promise.reject(new Error(problemText(problem, t))) : Promise.resolve();
            },
          },
        ]}
      >
        <Input.Password autoComplete="new-password" maxLength={20} autoFocus={autoFocus} />
      </Form.Item>
      <Form.Item
        name="confirm"
        label={t('cardSetup.superAdmin.confirm')}
        dependencies={['password']}
        rules={[
          { required: true, message: t('cardSetup.superAdmin.confirmRequired') },
          ({ getFieldValue }) => ({
            validator: (_rule, value: string) => (!value || value === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error(t('cardSetup.superAdmin.inconsistent')))),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" maxLength={20} />
      </Form.Item>
    </>
  );
}
