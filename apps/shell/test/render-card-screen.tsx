import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { GateSetupState, TenantSettings } from '@campus/contracts';
import { apiPaths } from '@campus/contracts';
import { installFakeApi } from './fake-api.ts';
import type { FakeRoutes } from './fake-api.ts';

export const gateSettings = { mjSystem: 21, systemName: 'Demo Campus', loginLogo: '', cardIssuerUrl: '' } as TenantSettings;

export const freshGate: GateSetupState = { mjSystem: 21, isGate: true, isInit: false, hasSecret: false, isIssueSecretCard: false, isIssueSuperAdminCard: false, customerNo: '' };

/**
 * Renders a card screen at `path` as the router would (with react-query), with a stub page at each of
 * `elsewhere` (it says "page <path>"), against a fake server that answers the entry checks with `state`.
 */
export function renderCardScreen(path: string, element: ReactElement, options: { state?: GateSetupState; routes?: FakeRoutes; elsewhere?: string[] } = {}) {
  const seen = installFakeApi({
    [apiPaths.tenantSettings]: () => ({ data: gateSettings }),
    [apiPaths.gmIsSystemInit]: () => ({ data: options.state ?? freshGate }),
    ...options.routes,
  });
  const router = createMemoryRouter(
    [{ path, element }, ...(options.elsewhere ?? []).map((other) => ({ path: other, element: <p>page {other}</p> }))],
    { initialEntries: [path] },
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...view, router, seen };
}
