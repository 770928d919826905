import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';

/**
 * Renders `element` at /home as the shell would (react-query, a router with a /login page).
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
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...view, view, router, queryClient };
}
