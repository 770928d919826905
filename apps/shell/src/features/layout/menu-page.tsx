import { useEffect } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import * as storage from '../../lib/storage.ts';
import { findMenuPage, isAlwaysAcceptedPath, useMenuStore } from '../../lib/menus.ts';

/** A menu path under the layout (the catch-all child): the page title; the sub-app mounts beside it. */
export default function MenuPage() {
  const location = useLocation();
  const pages = useMenuStore((state) => state.pages);
  const page = findMenuPage(pages, location.pathname);

  useEffect(() => {
    if (!page) return;
    storage.currentPage.set(page.path);
    storage.currentMenu.set(page.meta.appNo);
  }, [page]);

  if (!page && !isAlwaysAcceptedPath(location.pathname)) return <Navigate to="/not-find" replace />;
  return <h1 className="campus-page__title">{page?.title ?? location.pathname}</h1>;
}
