import { useId, type CSSProperties } from 'react';
import { Drawer } from 'antd';
import type { MenuPage, MenuSystem } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import { systemLabelKey } from '../../lib/menus.ts';
import { withTabKeptWithin } from '../../lib/keep-tab-within.tsx';
import { SideMenu } from './side-menu.tsx';
import type { MenuTarget } from './side-menu-tree.ts';
import { SystemList } from './top-menu.tsx';

/**
 * The phone layout's navigation (issue 27, item 1): the side menu of the current system under its name, then the
 * header's systems under a heading of their own, in a drawer from the left. The pages come first: with the
 * fourteen systems above them they began at the screen's bottom edge, 16 Tab presses down (issue 48, item 12).
 * Choosing a page or a system closes it; Tab goes round inside it.
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
  const systemsHeading = useId();
  const current = systems.find((system) => system.appNo === currentAppNo);
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
      drawerRender={withTabKeptWithin}
    >
      {current ? <h2 className="campus-navigation-drawer__heading">{t(systemLabelKey(current.appNo), { defaultValue: current.label })}</h2> : null}
      <SideMenu pages={pages} appNo={currentAppNo} currentPageId={currentPageId} targetOf={pageTarget} onChosen={onClose} />
      <nav aria-labelledby={systemsHeading} className="campus-navigation-drawer__systems">
        <h2 id={systemsHeading} className="campus-navigation-drawer__heading">
          {t('layout.systems')}
        </h2>
        <SystemList systems={systems} currentAppNo={currentAppNo} targetOf={systemTarget} onChosen={onClose} />
      </nav>
    </Drawer>
  );
}
