import { useEffect, useState } from 'react';
import { belongsToApp } from './routes.ts';

/**
 * window.location.pathname, re-read on popstate (the shell changes routes with history.pushState and single-spa
 * fires popstate on every change). Paths outside the app are ignored: the app is about to be unmounted.
 */
export function useAppPath(basePath: string): string {
  const [path, setPath] = useState(() => window.location.pathname);
  useEffect(() => {
    const onPopState = () => {
      const next = window.location.pathname;
      if (belongsToApp(next, basePath)) setPath(next);
    };
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, [basePath]);
  return path;
}
