import { Navigate, useLocation } from 'react-router-dom';
import { useTranslation } from '../../lib/use-translation.ts';
import { findMenuPage, isAlwaysAcceptedPath, menuTitleKey, useMenuStore } from '../../lib/menus.ts';
import { safeRedirectTarget } from '../../lib/paths.ts';

/**
 * A menu path under the layout (the catch-all child). A report page shows its backend page path in an
 * embedded frame (same origin only); any other page belongs to a sub-application, which mounts in the
 * layout's viewport beside this element, so nothing renders here.
 */
export default function MenuPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const pages = useMenuStore((state) => state.pages);
  const page = findMenuPage(pages, location.pathname);

  if (!page && !isAlwaysAcceptedPath(location.pathname)) return <Navigate to="/not-find" replace />;
  const title = page ? t(menuTitleKey(page.id)) : t('layout.monitorPage');
  const frameUrl = safeRedirectTarget(page?.meta.frameUrl);
  if (frameUrl) {
    return <iframe className="campus-report-frame" src={frameUrl} title={title} sandbox="allow-same-origin allow-scripts allow-forms allow-downloads" />;
  }
  return null;
}
