import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { i18n } from '../src/lib/i18n.ts';

/**
 * Renders `element` at /home as the shell would (translations, react-query, a router with a /login page).
 * Pass `queryClient` to keep server state across a re-render (a page reload keeps none).
 */
export function renderShell(element: ReactElement, queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })) {
  const router = createMemoryRouter(
    [
      { path: '/home', element },
      { path: '/login', element: <p>login page</p> },
    ],
    { initialEntries: ['/home'] },
  );
  const view = render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return { ...view, view, router, queryClient };
}
