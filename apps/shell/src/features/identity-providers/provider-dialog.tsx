import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Form, Input, Modal, Radio, Select, Space, Switch } from 'antd';
import type { InputRef } from 'antd';
import type { IdentityProviderTestResult, IdentityProviderTestStep, IdentityProviderView, LanguageCode } from '@campus/contracts';
import { codes, identityProviderKinds } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import { RequestError } from '../../lib/request.ts';
import { refusalText, saveProvider, testProvider } from './provider-calls.ts';
import { fieldOfRefusal, formFromView, isWebAddress, requestFromForm, type ProviderFormValues } from './provider-form.ts';

/** Each language's name field, in the order the dialog asks for them. */
const nameLanguages: LanguageCode[] = ['en-US', 'zh-CN', 'zh-MO'];

/** An address to register at the provider, read-only, with a button that copies it. */
function CopyableAddress({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation();
  const input = useRef<InputRef>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  const id = `campus-address-${label.replace(/\W+/g, '-')}`;
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      // no clipboard (a page not served over https): the address is selected for the keyboard's copy
      input.current?.select();
    }
  };
  return (
    <div className="campus-provider-dialog__address">
      <label htmlFor={id}>{label}</label>
      <Space.Compact style={{ width: '100%' }}>
        <Input id={id} ref={input} readOnly value={value} onFocus={(event) => event.target.select()} />
        <Button onClick={() => void copy()} aria-label={copied ? t('identityProviders.copied') : t('identityProviders.copyNamed', { what: label })}>
          {copied ? t('identityProviders.copied') : t('identityProviders.copy')}
        </Button>
      </Space.Compact>
    </div>
  );
}

/** What "Test connection" found, step by step, in the server's words (issue 49). */
function TestResult({ result }: { result: IdentityProviderTestResult }) {
  const { t } = useTranslation();
  const stepNames: Record<IdentityProviderTestStep, string> = {
    discovery: t('identityProviders.step.discovery'),
    keys: t('identityProviders.step.keys'),
    clock: t('identityProviders.step.clock'),
    validation: t('identityProviders.step.validation'),
  };
  return (
    <Alert
      type={result.ok ? 'success' : 'error'}
      showIcon
      title={result.ok ? t('identityProviders.testPassed') : t('identityProviders.testFailed')}
      description={
        <>
          <ul className="campus-provider-dialog__steps">
            {result.steps.map((step) => (
              <li key={step.step}>
                <span className={step.ok ? 'campus-provider-dialog__step-ok' : 'campus-provider-dialog__step-failed'}>
                  {step.ok ? t('identityProviders.stepOk') : t('identityProviders.stepFailed')}
                </span>
                <strong>{stepNames[step.step] ?? step.step}</strong>
                <span>{step.detail}</span>
              </li>
            ))}
          </ul>
          {result.clockSkewSeconds !== null ? <p style={{ margin: '4px 0 0' }}>{t('identityProviders.clockSkew', { seconds: result.clockSkewSeconds })}</p> : null}
        </>
      }
    />
  );
}

/**
 * Add or change one identity provider: its kind, its names in the three languages, the kind's settings (a client
 * secret is written, never shown: the stored one is kept unless a new one is typed), the addresses to register at
 * the provider, Test connection and the switch. A new provider stays open once saved, to show those addresses.
 */
export function ProviderDialog({
  view,
  onSaved,
  onClose,
}: {
  view: IdentityProviderView | null;
  onSaved: (saved: IdentityProviderView, created: boolean) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ProviderFormValues>();
  // the provider as stored: none until a new one is saved
  const [current, setCurrent] = useState<IdentityProviderView | null>(view);
  const [saving, setSaving] = useState(false);
  const [testing, setTesting] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [tested, setTested] = useState<IdentityProviderTestResult | null>(null);
  const kind = Form.useWatch('kind', form) ?? current?.kind ?? 'oidc';
  const claimChoice = Form.useWatch('claimChoice', form);
  const secretKept = Boolean(current?.oidc?.hasClientSecret);
  const nameLabels: Record<LanguageCode, string> = {
    'en-US': t('identityProviders.field.nameEnUS'),
    'zh-CN': t('identityProviders.field.nameZhCN'),
    'zh-MO': t('identityProviders.field.nameZhMO'),
  };

  const required = (label: string) => ({ required: true, whitespace: true, message: t('identityProviders.required', { field: label }) });
  const webAddress = () => ({
    validator: (_: unknown, value: string) => (!value || isWebAddress(value) ? Promise.resolve() : Promise.reject(new Error(t('identityProviders.notAddress')))),
  });

  /** A refused call: beside the field it names, else above the form. */
  const showRefusal = (error: unknown) => {
    const text = refusalText(error);
    const byField = error instanceof RequestError && (error.code === codes.ssoProviderConfigInvalid || error.code === codes.ssoProviderAddressRefused);
    const field = byField ? fieldOfRefusal(error.data, form.getFieldsValue()) : null;
    if (field) {
      form.setFields([{ name: field, errors: [text] }]);
      form.scrollToField(field, { focus: true });
      setRefusal(null);
    } else {
      setRefusal(text);
    }
  };

  const valuesChecked = async (): Promise<ProviderFormValues | null> => {
    setRefusal(null);
    setNotice(null);
    try {
      return await form.validateFields();
    } catch {
      return null;
    }
  };

  const save = async () => {
    const values = await valuesChecked();
    if (!values) return;
    setSaving(true);
    try {
      const saved = await saveProvider(requestFromForm(values, current?.id ?? null));
      const created = current === null;
      onSaved(saved, created);
      if (!created) {
        onClose();
        return;
      }
      setCurrent(saved);
      form.setFieldValue('clientSecret', '');
      setNotice(t('identityProviders.registerAddresses'));
    } catch (error) {
      showRefusal(error);
    } finally {
      setSaving(false);
    }
  };

  const test = async () => {
    const values = await valuesChecked();
    if (!values) return;
    setTesting(true);
    setTested(null);
    try {
      setTested(await testProvider(requestFromForm(values, current?.id ?? null)));
    } catch (error) {
      showRefusal(error);
    } finally {
      setTesting(false);
    }
  };

  const busy = saving || testing;
  return (
    <Modal
      open
      width={640}
      title={current ? t('identityProviders.editTitle') : t('identityProviders.addTitle')}
      onCancel={() => (busy ? undefined : onClose())}
      maskClosable={false}
      destroyOnHidden
      footer={
        <Space wrap>
          <Button onClick={() => void test()} loading={testing} disabled={saving}>
            {testing ? t('identityProviders.testing') : t('identityProviders.test')}
          </Button>
          <Button onClick={onClose} disabled={busy}>
            {current && view === null ? t('identityProviders.close') : t('common.cancel')}
          </Button>
          <Button type="primary" onClick={() => void save()} loading={saving} disabled={testing}>
            {saving ? t('identityProviders.saving') : t('identityProviders.save')}
          </Button>
        </Space>
      }
    >
      {notice ? <Alert type="success" showIcon title={notice} role="status" style={{ marginBottom: 12 }} /> : null}
      {refusal ? <Alert type="error" showIcon title={refusal} role="alert" style={{ marginBottom: 12 }} /> : null}
      <Form<ProviderFormValues> form={form} layout="vertical" initialValues={formFromView(view)} aria-busy={busy} onValuesChange={() => setTested(null)}>
        <Form.Item name="kind" label={t('identityProviders.field.kind')}>
          <Radio.Group disabled={current !== null} options={identityProviderKinds.map((value) => ({ value, label: value === 'oidc' ? t('identityProviders.kind.oidc') : t('identityProviders.kind.cas') }))} />
        </Form.Item>
        {nameLanguages.map((code) => (
          <Form.Item key={code} name={['name', code]} label={nameLabels[code]} rules={[required(nameLabels[code])]}>
            <Input maxLength={64} lang={code} />
          </Form.Item>
        ))}
        {kind === 'oidc' ? (
          <>
            <Form.Item name="discoveryUrl" label={t('identityProviders.field.discoveryUrl')} extra={t('identityProviders.help.discoveryUrl')} rules={[required(t('identityProviders.field.discoveryUrl')), webAddress()]}>
              <Input inputMode="url" autoComplete="off" placeholder="https://sso.example.edu/realms/campus/.well-known/openid-configuration" />
            </Form.Item>
            <Form.Item name="clientId" label={t('identityProviders.field.clientId')} rules={[required(t('identityProviders.field.clientId'))]}>
              <Input autoComplete="off" />
            </Form.Item>
            <Form.Item
              name="clientSecret"
              label={t('identityProviders.field.clientSecret')}
              extra={secretKept ? t('identityProviders.help.secretKept') : t('identityProviders.help.secretNew')}
              rules={secretKept ? [] : [required(t('identityProviders.field.clientSecret'))]}
            >
              <Input.Password autoComplete="new-password" placeholder={secretKept ? t('identityProviders.secretKeptPlaceholder') : undefined} visibilityToggle={false} />
            </Form.Item>
            <Form.Item name="scopes" label={t('identityProviders.field.scopes')} extra={t('identityProviders.help.scopes')} rules={[required(t('identityProviders.field.scopes'))]}>
              <Input autoComplete="off" />
            </Form.Item>
            <Form.Item name="claimChoice" label={t('identityProviders.field.accountClaim')} extra={t('identityProviders.help.accountClaim')}>
              <Select
                options={[
                  { value: 'preferred_username', label: t('identityProviders.claim.preferredUsername') },
                  { value: 'email', label: t('identityProviders.claim.email') },
                  { value: 'other', label: t('identityProviders.claim.other') },
                ]}
              />
            </Form.Item>
            {claimChoice === 'other' ? (
              <Form.Item name="otherClaim" label={t('identityProviders.field.otherClaim')} rules={[required(t('identityProviders.field.otherClaim'))]}>
                <Input autoComplete="off" />
              </Form.Item>
            ) : null}
          </>
        ) : (
          <>
            <Form.Item name="serverUrl" label={t('identityProviders.field.serverUrl')} extra={t('identityProviders.help.serverUrl')} rules={[required(t('identityProviders.field.serverUrl')), webAddress()]}>
              <Input inputMode="url" autoComplete="off" placeholder="https://cas.example.edu/cas" />
            </Form.Item>
            <Form.Item name="accountAttribute" label={t('identityProviders.field.accountAttribute')} extra={t('identityProviders.help.accountAttribute')}>
              <Input autoComplete="off" />
            </Form.Item>
          </>
        )}
        <Form.Item name="enabled" label={t('identityProviders.field.enabled')} valuePropName="checked" extra={t('identityProviders.help.enabled')}>
          <Switch />
        </Form.Item>
      </Form>
      {current ? (
        <section aria-label={t('identityProviders.addresses')}>
          <CopyableAddress label={kind === 'cas' ? t('identityProviders.field.casService') : t('identityProviders.field.callbackUrl')} value={current.callbackUrl} />
          {current.kind === 'oidc' && current.backchannelLogoutUrl ? <CopyableAddress label={t('identityProviders.field.backchannelLogoutUrl')} value={current.backchannelLogoutUrl} /> : null}
        </section>
      ) : (
        <p className="campus-identity-providers__explain">{t('identityProviders.addressesAfterSave')}</p>
      )}
      <div aria-live="polite">{tested ? <TestResult result={tested} /> : null}</div>
    </Modal>
  );
}
