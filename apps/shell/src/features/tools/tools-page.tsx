import { Alert } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { apiPaths, toLanguage, toolFileUrl } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import { HeightLimitedTable } from '../../lib/height-limited-table.tsx';
import { plainGet } from '../../lib/request.ts';

export interface ToolItem {
  showName: string;
  use: string;
  fileName: string;
}

async function fetchTools(): Promise<ToolItem[]> {
  const list = await plainGet<unknown>(apiPaths.toolsList);
  if (!Array.isArray(list)) throw new Error('tools.json is not a list');
  return list.filter((item): item is ToolItem => typeof item === 'object' && item !== null && typeof (item as ToolItem).fileName === 'string');
}

/** /tools: downloadable tools (spec §2): name, purpose, download link; no pagination; scroll 450. */
export default function ToolsPage() {
  const { t, i18n } = useTranslation();
  // the server names the tools in the request's language: a switch asks again
  const query = useQuery({ queryKey: ['tools', toLanguage(i18n.language)], queryFn: fetchTools, retry: false });

  return (
    <main className="campus-page">
      <h1 className="campus-page__title">{t('tools.title')}</h1>
      {query.isError ? <Alert type="error" showIcon title={t('tools.loadFailed')} style={{ marginBottom: 16 }} /> : null}
      <HeightLimitedTable<ToolItem>
        label={t('tools.title')}
        bodyHeight={450}
        rowKey="fileName"
        loading={query.isLoading}
        dataSource={query.data ?? []}
        pagination={false}
        locale={{ emptyText: query.isError ? t('tools.loadFailed') : t('tools.empty') }}
        columns={[
          { title: t('tools.name'), dataIndex: 'showName', key: 'showName' },
          { title: t('tools.use'), dataIndex: 'use', key: 'use' },
          {
            title: t('tools.download'),
            key: 'download',
            render: (_value, item) => (
              <a href={toolFileUrl(item.fileName)} download={item.fileName}>
                {t('tools.downloadFile', { name: item.showName || item.fileName })}
              </a>
            ),
          },
        ]}
      />
      <p>
        <Link to="/login">{t('errors.backToLogin')}</Link>
      </p>
    </main>
  );
}
