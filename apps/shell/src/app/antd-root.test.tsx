import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import type { TenantSettings } from '@campus/contracts';
import * as storage from '../lib/storage.ts';

/** The theme's CSS variables as the page has them: the text of the style element that declares the primary colour. */
const themeVariables = () => [...document.head.querySelectorAll('style')].map((style) => style.textContent ?? '').find((text) => text.includes('--ant-color-primary:')) ?? '';
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

/** A fresh shell: antd's theme cache and the prepared theme are kept by modules, once per page load. */
async function freshShell() {
  vi.resetModules();
  const [{ AntdRoot, prepareTheme }, { Button }, { createMemoryRouter, RouterProvider }] = await Promise.all([import('./antd-root.tsx'), import('antd'), import('react-router-dom')]);
  const renderAntdPage = () => {
    const router = createMemoryRouter([{ element: <AntdRoot />, children: [{ path: '/', element: <Button type="primary">Save</Button> }] }]);
    return render(<RouterProvider router={router} />);
  };
  return { prepareTheme, renderAntdPage };
}

beforeEach(() => {
  document.head.querySelectorAll('style').forEach((style) => style.remove());
});

afterEach(() => {
  localStorage.clear();
});

describe('the theme derived while the login form is filled in', () => {
  it('is the one the first antd page shows, and stays when that page has taken it over', async () => {
    const shell = await freshShell();
    shell.prepareTheme();
    await waitFor(() => expect(themeVariables()).toContain('.campus-shell-theme'));
    expect(themeVariables()).toContain('--ant-color-primary:#0958d9');

    shell.renderAntdPage();
    const save = await screen.findByRole('button', { name: 'Save' });
    expect(save.closest('.campus-shell-theme')).not.toBeNull();
    // the prepared theme has been let go by now; its variables are the page's own
    await settle();
    expect(themeVariables()).toContain('--ant-color-primary:#0958d9');
  });
});

describe('a signed-in tenant whose skin is not the login page’s', () => {
  it('sees its own skin, not the one prepared for the login page’s tenant, once the prepared one is let go', async () => {
    const shell = await freshShell();
    shell.prepareTheme();
    await waitFor(() => expect(themeVariables()).toContain('--ant-color-primary:#0958d9'));
    storage.tenantSettings.set({ skin: 'DASUI004' } as TenantSettings);
    shell.renderAntdPage();
    await screen.findByRole('button', { name: 'Save' });
    await settle();
    expect(themeVariables()).toContain('--ant-color-primary:#722ed1');
  });
});
