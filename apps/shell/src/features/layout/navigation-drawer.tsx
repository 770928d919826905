import { Drawer, Menu } from 'antd';
import type { MenuPage, MenuSystem } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import { systemLabelKey } from '../../lib/menus.ts';
import { SideMenu } from './side-menu.tsx';

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
  onOpenSystem,
  onOpenPath,
}: {
  open: boolean;
  onClose: () => void;
  systems: MenuSystem[];
  currentAppNo: string | null;
  pages: MenuPage[];
  currentPageId: string | null;
  onOpenSystem: (system: MenuSystem) => void;
  onOpenPath: (path: string) => void;
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
      styles={{ body: { padding: 0 } }}
    >
      <nav aria-label={t('layout.systems')} className="campus-navigation-drawer__systems">
        <Menu
          mode="inline"
          tooltip={false}
          selectedKeys={currentAppNo ? [currentAppNo] : []}
          items={systems.map((system) => ({ key: system.appNo, label: <span data-module={system.appNo}>{t(systemLabelKey(system.appNo), { defaultValue: system.label })}</span> }))}
          onClick={({ key }) => {
            const system = systems.find((candidate) => candidate.appNo === key);
            if (!system) return;
            onClose();
            onOpenSystem(system);
          }}
        />
      </nav>
      <SideMenu
        pages={pages}
        appNo={currentAppNo}
        currentPageId={currentPageId}
        onOpenPath={(path) => {
          onClose();
          onOpenPath(path);
        }}
      />
    </Drawer>
  );
}
