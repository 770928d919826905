import { beforeEach, describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { apiPaths } from '@campus/contracts';
import { i18n } from '../../lib/i18n.ts';
import { installFakeApi } from '../../../test/fake-api.ts';
import ToolsPage from './tools-page.tsx';

const names: Record<string, string> = { 'en-US': 'Card issuer (Windows x64)', 'zh-CN': '发卡器（Windows x64）', 'zh-MO': '發卡器（Windows x64）' };

beforeEach(async () => {
  await i18n.changeLanguage('en-US');
});

describe('/tools (spec §2)', () => {
  it('names the tools, their purposes and the download links in the language shown, again after a switch', async () => {
    installFakeApi({
      [apiPaths.toolsList]: (call) => {
        const language = String(call.config.headers.get('language'));
        return { envelope: [{ showName: names[language], use: `use ${language}`, fileName: 'card-issuer-win-x64.zip', url: '/tools/card-issuer-win-x64.zip' }] as never };
      },
    });
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <ToolsPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(await screen.findByRole('link', { name: 'Download Card issuer (Windows x64)' })).toBeInTheDocument();
    expect(screen.getByText('use en-US')).toBeInTheDocument();
    await act(() => i18n.changeLanguage('zh-MO'));
    expect(await screen.findByRole('link', { name: '下載 發卡器（Windows x64）' })).toBeInTheDocument();
    expect(screen.getByText('use zh-MO')).toBeInTheDocument();
    expect(screen.queryByText('Card issuer (Windows x64)', { exact: false })).not.toBeInTheDocument();
  });
});
