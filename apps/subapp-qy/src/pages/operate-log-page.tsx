import { useCallback, useId, useState, type FormEvent } from 'react';
import type { OperationLogRow } from '@campus/contracts';
import { apiPaths, operationActions, operationLogPaging } from '@campus/contracts';
import { isPermissionDenied, type ShellApiResult } from '@campus/subapp-sdk';
import { zoneName } from '@campus/subapp-sdk/time';
import { useQy } from '../lib/qy-context.ts';
import { LoadFailed } from '../components/load-failed.tsx';
import { useRemote } from '../lib/use-remote.ts';
import { formatDateTime } from '../lib/clock.ts';
import type { MessageKey } from '../lib/i18n.ts';
import { emptyLogForm, filtersFromForm, operatorMaxLength, searchRequest, type LogForm, type LogQuery } from '../lib/operation-log-query.ts';

/** /qy/operate-log: the operation log of the tenant, filtered and paged on the server. */
export function OperateLogPage() {
  const { props, t } = useQy();
  const { api, globalConfig } = props;
  const utcDiff = globalConfig.utcDiff;
  // times are shown and typed on the user's clock: the column and the filters name it
  const inZone = (label: string) => t('common.inZone', { label, zone: zoneName(utcDiff) });
  const ids = { title: useId(), from: useId(), to: useId(), operator: useId(), action: useId(), rangeError: useId(), size: useId(), caption: useId() };

  const [form, setForm] = useState<LogForm>(emptyLogForm);
  const [rangeInvalid, setRangeInvalid] = useState(false);
  const [query, setQuery] = useState<LogQuery>({ filters: {}, index: 1, size: operationLogPaging.pageSize });

  const request = useCallback(
    () => api.post<OperationLogRow[]>(apiPaths.operationLogSearch, searchRequest(query)),
    [api, query],
  );
  const remote = useRemote<ShellApiResult<OperationLogRow[]>>(request);

  const edit = <K extends keyof LogForm>(key: K, value: LogForm[K]) => {
    setForm((previous) => ({ ...previous, [key]: value }));
    if (key === 'from' || key === 'to') setRangeInvalid(false);
  };

  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    const checked = filtersFromForm(form, utcDiff);
    if (!checked.ok) {
      setRangeInvalid(true);
      return;
    }
    setRangeInvalid(false);
    setQuery((previous) => ({ filters: checked.filters, index: 1, size: previous.size }));
  };

  const onReset = () => {
    setForm(emptyLogForm);
    setRangeInvalid(false);
    setQuery((previous) => ({ filters: {}, index: 1, size: previous.size }));
  };

  const rows = remote.data?.data ?? [];
  const total = remote.data ? (remote.data.recordCount ?? rows.length) : 0;
  const pages = Math.max(1, Math.ceil(total / query.size));
  const loading = remote.status === 'loading';
  const denied = remote.status === 'error' && isPermissionDenied(remote.error);
  const failed = remote.status === 'error' && !denied;
  const label = (prefix: 'action' | 'result', value: string) => {
    const key = `${prefix}.${value}` as MessageKey;
    const text = t(key);
    return text === key ? value : text;
  };

  return (
    <section className="qy-page" aria-labelledby={ids.title}>
      <header className="qy-page-header">
        <h2 id={ids.title} className="qy-title">
          {t('log.title')}
        </h2>
      </header>

      <form className="qy-card qy-filters" onSubmit={onSearch} noValidate aria-label={t('log.filters')}>
        <div className="qy-field">
          <label htmlFor={ids.from}>{inZone(t('log.from'))}</label>
          <input
            id={ids.from}
            className="qy-input"
            type="datetime-local"
            value={form.from}
            onChange={(event) => edit('from', event.target.value)}
          />
        </div>
        <div className="qy-field">
          <label htmlFor={ids.to}>{inZone(t('log.to'))}</label>
          <input
            id={ids.to}
            className="qy-input"
            type="datetime-local"
            value={form.to}
            aria-invalid={rangeInvalid || undefined}
            aria-describedby={rangeInvalid ? ids.rangeError : undefined}
            onChange={(event) => edit('to', event.target.value)}
          />
        </div>
        <div className="qy-field">
          <label htmlFor={ids.operator}>{t('log.operator')}</label>
          <input
            id={ids.operator}
            className="qy-input"
            type="text"
            maxLength={operatorMaxLength}
            placeholder={t('log.operatorPlaceholder')}
            value={form.operator}
            onChange={(event) => edit('operator', event.target.value)}
          />
        </div>
        <div className="qy-field">
          <label htmlFor={ids.action}>{t('log.action')}</label>
          <select id={ids.action} className="qy-input" value={form.action} onChange={(event) => edit('action', event.target.value as LogForm['action'])}>
            <option value="">{t('log.allActions')}</option>
            {operationActions.map((action) => (
              <option key={action} value={action}>
                {label('action', action)}
              </option>
            ))}
          </select>
        </div>
        <div className="qy-field qy-field-buttons">
          <button type="submit" className="qy-btn qy-btn-primary">
            {t('log.search')}
          </button>
          <button type="button" className="qy-btn" onClick={onReset}>
            {t('log.reset')}
          </button>
        </div>
        {rangeInvalid && (
          <p id={ids.rangeError} className="qy-field-error" role="alert">
            {t('log.rangeInvalid')}
          </p>
        )}
      </form>

      {denied ? (
        <div className="qy-card qy-alert qy-alert-error" role="alert">
          {t('log.noPermission')}
        </div>
      ) : failed ? (
        <LoadFailed className="qy-card" message={t('log.loadFailed')} onRetry={remote.reload} />
      ) : (
        <div className="qy-card qy-table-card">
          <div className="qy-table-scroll" aria-busy={loading}>
            <table className="qy-table">
              <caption id={ids.caption} className="qy-visually-hidden">
                {t('log.caption')}
              </caption>
              <thead>
                <tr>
                  <th scope="col">{inZone(t('log.time'))}</th>
                  <th scope="col">{t('log.operator')}</th>
                  <th scope="col">{t('log.action')}</th>
                  <th scope="col">{t('log.result')}</th>
                  <th scope="col">{t('log.clientIp')}</th>
                  <th scope="col">{t('log.detail')}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.id}>
                    <td className="qy-nowrap">{formatDateTime(row.createdAt, utcDiff)}</td>
                    <td>{row.account}</td>
                    <td>{label('action', row.action)}</td>
                    <td>
                      <span className={`qy-tag qy-tag-${row.result === 'success' ? 'success' : 'error'}`}>{label('result', row.result)}</span>
                    </td>
                    <td className="qy-nowrap">{row.clientIp}</td>
                    <td>{row.detail || t('common.none')}</td>
                  </tr>
                ))}
                {rows.length === 0 && (
                  <tr>
                    <td colSpan={6} className="qy-table-empty">
                      {loading ? t('common.loading') : t('log.empty')}
                    </td>
                  </tr>
                )}
              </tbody>
            </table>
          </div>

          <nav className="qy-pagination" aria-label={t('log.pagination')}>
            <span className="qy-total" role="status">
              {loading && rows.length > 0 ? t('common.loading') : t(total === 1 ? 'log.totalOne' : 'log.totalOther', { count: total })}
            </span>
            <label className="qy-inline-field" htmlFor={ids.size}>
              {t('log.pageSize')}
            </label>
            <select
              id={ids.size}
              className="qy-input qy-input-small"
              value={query.size}
              onChange={(event) => setQuery((previous) => ({ ...previous, index: 1, size: Number(event.target.value) }))}
            >
              {operationLogPaging.pageSizeOptions.map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </select>
            <button
              type="button"
              className="qy-btn qy-btn-small"
              disabled={query.index <= 1}
              onClick={() => setQuery((previous) => ({ ...previous, index: previous.index - 1 }))}
            >
              {t('log.previous')}
            </button>
            <span className="qy-page-number">{t('log.page', { page: query.index, pages })}</span>
            <button
              type="button"
              className="qy-btn qy-btn-small"
              disabled={query.index >= pages}
              onClick={() => setQuery((previous) => ({ ...previous, index: previous.index + 1 }))}
            >
              {t('log.next')}
            </button>
          </nav>
        </div>
      )}
    </section>
  );
}
