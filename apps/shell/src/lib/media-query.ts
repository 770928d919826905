import { useCallback, useSyncExternalStore } from 'react';

function media(query: string): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(query) : null;
}

/** Whether the CSS media query matches now (false where there is no window.matchMedia: tests, server rendering). */
export function matchesMedia(query: string): boolean {
  return media(query)?.matches ?? false;
}

/** Whether the CSS media query matches, following its changes live (a rotated phone, a changed system setting). */
export function useMediaQuery(query: string): boolean {
  // one subscription per query, not one per render
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = media(query);
      list?.addEventListener('change', onChange);
      return () => list?.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => matchesMedia(query), () => false);
}
