import type { CSSProperties } from 'react';
import { Drawer } from 'antd';
import type { MenuPage, MenuSystem } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import { SideMenu } from './side-menu.tsx';
import type { MenuTarget } from './side-menu-tree.ts';
import { SystemList } from './top-menu.tsx';

/**
 * The phone layout's navigation (issue 27, item 1): the header's systems and the side menu of the current system,
 * one above the other in a drawer from the left. Choosing a page or a system closes it.
 */
export function NavigationDrawer({
  open,
  onClose,
  systems,
  currentAppNo,
  pages,
  currentPageId,
  systemTarget,
  pageTarget,
  skinStyle,
}: {
  open: boolean;
  onClose: () => void;
  systems: MenuSystem[];
  currentAppNo: string | null;
  pages: MenuPage[];
  currentPageId: string | null;
  systemTarget: (system: MenuSystem) => MenuTarget;
  pageTarget: (path: string) => MenuTarget;
  /** The skin's colours (the drawer renders outside the layout, which carries them for everything else). */
  skinStyle: CSSProperties;
}) {
  const { t } = useTranslation();
  return (
    <Drawer
      open={open}
      onClose={onClose}
      placement="left"
      size={300}
      title={t('layout.navigation')}
      className="campus-navigation-drawer"
      rootStyle={skinStyle}
      styles={{ body: { padding: 0 } }}
    >
      <nav aria-label={t('layout.systems')} className="campus-navigation-drawer__systems">
        <SystemList systems={systems} currentAppNo={currentAppNo} targetOf={systemTarget} onChosen={onClose} />
      </nav>
      <SideMenu pages={pages} appNo={currentAppNo} currentPageId={currentPageId} targetOf={pageTarget} onChosen={onClose} />
    </Drawer>
  );
}
