import { beforeEach, describe, expect, it } from 'vitest';
import { act, render, waitFor } from '@testing-library/react';
import { apiPaths } from '@campus/contracts';
import { installFakeApi, type SeenCall } from '../../test/fake-api.ts';
import { i18n } from '../lib/i18n.ts';
import { Providers } from './providers.tsx';

let seen: SeenCall[];
const productNameCalls = () => seen.filter((call) => call.url === apiPaths.licenceSysInfos).length;

beforeEach(async () => {
  await i18n.changeLanguage('en-US');
  seen = installFakeApi({
    [apiPaths.licenceSysInfos]: (call) => ({ data: { productName: `Product (${String(call.config.headers.get('language'))})` } }),
  });
});

describe('the page language and title', () => {
  it('are the product name GetSysInfos answers in the language shown, asked for once per language', async () => {
    render(<Providers>page</Providers>);
    expect(document.documentElement.lang).toBe('en-US');
    await waitFor(() => expect(document.title).toBe('Product (en-US)'));

    // texts arriving (the menus' titles after sign-in) do not ask again
    act(() => {
      for (const title of ['Home', 'Departments', 'Employees']) i18n.addResourceBundle('en-US', 'menu', { page: title }, true, true);
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(productNameCalls()).toBe(1);
    expect(document.title).toBe('Product (en-US)');

    // another language asks once more, and the page says which language it is in
    await act(() => i18n.changeLanguage('zh-CN'));
    expect(document.documentElement.lang).toBe('zh-CN');
    await waitFor(() => expect(document.title).toBe('Product (zh-CN)'));
    expect(productNameCalls()).toBe(2);
  });
});
