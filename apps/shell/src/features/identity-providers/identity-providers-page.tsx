import { useState } from 'react';
import { Alert, Button, Modal, Space, Switch, Table, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import type { IdentityProviderView } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import { useUserDetail } from '../../lib/user-detail.ts';
import { titleInViewerZone, viewerTime } from '../../lib/time-format.ts';
import { LoadFailedAlert } from '../../lib/load-failed-alert.tsx';
import { providersKey, deleteProvider, refusalText, saveProvider, useIdentityProviders } from './provider-calls.ts';
import { providerName, requestWithEnabled } from './provider-form.ts';
import { ProviderDialog } from './provider-dialog.tsx';
import './identity-providers.css';

type Outcome = { type: 'success' | 'error'; text: string };

/**
 * /identity-providers (issue 49, docs/sso.md): a tenant's system administrator connects the tenant's identity
 * services (OpenID Connect, CAS), tries them and switches them on; the login page then offers "Sign in with …".
 * The server keeps who may (its answer to a refused call is shown); the screen is offered to system administrators.
 */
export default function IdentityProvidersPage() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const user = useUserDetail();
  const isSystemAdmin = user.data?.isSystemAdmin === true;
  const providers = useIdentityProviders(isSystemAdmin);
  // the dialog: a new provider (null) or one being changed
  const [editing, setEditing] = useState<{ view: IdentityProviderView | null } | null>(null);
  const [deleting, setDeleting] = useState<IdentityProviderView | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const name = (view: IdentityProviderView) => providerName(view.name, i18n.language);
  const refresh = () => queryClient.invalidateQueries({ queryKey: providersKey });

  const switchTo = async (view: IdentityProviderView, enabled: boolean) => {
    setBusyId(view.id);
    setOutcome(null);
    try {
      await saveProvider(requestWithEnabled(view, enabled));
      setOutcome({ type: 'success', text: t(enabled ? 'identityProviders.switchedOn' : 'identityProviders.switchedOff', { name: name(view) }) });
    } catch (error) {
      setOutcome({ type: 'error', text: refusalText(error) });
    } finally {
      setBusyId(null);
    }
    await refresh();
  };

  const remove = async (view: IdentityProviderView) => {
    setBusyId(view.id);
    setOutcome(null);
    try {
      await deleteProvider(view.id);
      setOutcome({ type: 'success', text: t('identityProviders.deleted', { name: name(view) }) });
    } catch (error) {
      setOutcome({ type: 'error', text: refusalText(error) });
    } finally {
      setBusyId(null);
      setDeleting(null);
    }
    await refresh();
  };

  const header = (
    <>
      <Typography.Title level={2} id="campus-identity-providers-title" className="campus-identity-providers__title">
        {t('identityProviders.title')}
      </Typography.Title>
      <p className="campus-identity-providers__explain">{t('identityProviders.explain')}</p>
    </>
  );

  if (user.data && !isSystemAdmin) {
    return (
      <section className="campus-identity-providers" aria-labelledby="campus-identity-providers-title">
        {header}
        <Alert type="warning" showIcon title={t('identityProviders.onlySystemAdmin')} />
      </section>
    );
  }

  return (
    <section className="campus-identity-providers" aria-labelledby="campus-identity-providers-title">
      {header}
      <Space className="campus-identity-providers__actions">
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ view: null })} disabled={!isSystemAdmin}>
          {t('identityProviders.add')}
        </Button>
      </Space>
      {outcome ? <Alert type={outcome.type} showIcon title={outcome.text} closable onClose={() => setOutcome(null)} style={{ marginBottom: 12 }} role={outcome.type === 'error' ? 'alert' : 'status'} /> : null}
      {providers.isError ? (
        <LoadFailedAlert title={t('identityProviders.loadFailed')} description={refusalText(providers.error)} onRetry={() => void providers.refetch()} retrying={providers.isFetching} style={{ marginBottom: 12 }} />
      ) : null}
      <Table<IdentityProviderView>
        rowKey="id"
        size="middle"
        loading={user.isLoading || providers.isLoading}
        dataSource={providers.data ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('identityProviders.empty') }}
        columns={[
          { key: 'name', title: t('identityProviders.column.name'), render: (_: unknown, view) => name(view) },
          { key: 'kind', title: t('identityProviders.column.kind'), render: (_: unknown, view) => <Tag>{t(`identityProviders.kind.${view.kind}`)}</Tag> },
          {
            key: 'enabled',
            title: t('identityProviders.column.enabled'),
            render: (_: unknown, view) => (
              <Switch
                checked={view.enabled}
                loading={busyId === view.id}
                aria-label={t('identityProviders.enableNamed', { name: name(view) })}
                onChange={(checked) => void switchTo(view, checked)}
              />
            ),
          },
          { key: 'updatedAt', title: titleInViewerZone(t('identityProviders.column.updatedAt')), render: (_: unknown, view) => viewerTime(view.updatedAt, i18n.language, 'mediumDateTime') },
          {
            key: 'actions',
            title: t('identityProviders.column.actions'),
            render: (_: unknown, view) => (
              <Space>
                <Button size="small" onClick={() => setEditing({ view })} aria-label={t('identityProviders.editNamed', { name: name(view) })}>
                  {t('identityProviders.edit')}
                </Button>
                <Button size="small" danger onClick={() => setDeleting(view)} aria-label={t('identityProviders.deleteNamed', { name: name(view) })}>
                  {t('identityProviders.delete')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      {editing ? (
        <ProviderDialog
          view={editing.view}
          onSaved={(saved, created) => {
            setOutcome({ type: 'success', text: t(created ? 'identityProviders.created' : 'identityProviders.saved', { name: providerName(saved.name, i18n.language) }) });
            void refresh();
          }}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {deleting ? (
        <Modal
          open
          title={t('identityProviders.deleteTitle')}
          okText={t('identityProviders.delete')}
          cancelText={t('common.cancel')}
          okButtonProps={{ danger: true, autoFocus: true }}
          confirmLoading={busyId === deleting.id}
          onOk={() => void remove(deleting)}
          onCancel={() => (busyId === deleting.id ? undefined : setDeleting(null))}
          destroyOnHidden
        >
          <p>{t('identityProviders.deleteConfirm', { name: name(deleting) })}</p>
        </Modal>
      ) : null}
    </section>
  );
}
