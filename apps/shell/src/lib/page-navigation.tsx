import { createContext, useContext, type MouseEvent, type ReactNode } from 'react';

/**
 * What a page asks of navigation: where to go, and the query it was opened with. The login page, the first load
 * of most visits, starts before the router has loaded (app/main.tsx), so it uses this instead of the router's
 * hooks; under the router, `RouterPageNavigation` provides it (lib/router-page-navigation.tsx: a module of its
 * own, so that this one does not bring the router with it; issue 27).
 */
export interface PageNavigation {
  navigate: (to: string, options?: { replace?: boolean }) => void;
  search: URLSearchParams;
}

const PageNavigationContext = createContext<PageNavigation | null>(null);

export function PageNavigationProvider({ value, children }: { value: PageNavigation; children: ReactNode }) {
  return <PageNavigationContext.Provider value={value}>{children}</PageNavigationContext.Provider>;
}

export function usePageNavigation(): PageNavigation {
  const navigation = useContext(PageNavigationContext);
  if (!navigation) throw new Error('usePageNavigation: the page is rendered neither under the router nor as the standalone login page');
  return navigation;
}

/** A link within the shell: a plain click navigates in the page, a click that asks for a new tab or window is the browser's. */
export function PageLink({ to, children }: { to: string; children: ReactNode }) {
  const { navigate } = usePageNavigation();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a href={to} onClick={onClick}>
      {children}
    </a>
  );
}
