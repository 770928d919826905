import { useMemo } from 'react';
import { Outlet, useNavigate, useSearchParams } from 'react-router-dom';
import { PageNavigationProvider, type PageNavigation } from './page-navigation.tsx';

/** The router's navigation for the pages that use `usePageNavigation` (the root route's component). */
export function RouterPageNavigation() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const value = useMemo<PageNavigation>(() => ({ navigate: (to, options) => void navigate(to, options), search }), [navigate, search]);
  return (
    <PageNavigationProvider value={value}>
      <Outlet />
    </PageNavigationProvider>
  );
}
