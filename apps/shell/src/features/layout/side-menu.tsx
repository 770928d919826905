import { useEffect, useMemo, useState } from 'react';
import { Menu } from 'antd';
import type { MenuProps } from 'antd';
import type { MenuPage } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import { ancestorsOf, sideMenuTree, type SideNode } from './side-menu-tree.ts';

type Item = Required<MenuProps>['items'][number];

function toItems(nodes: SideNode[], t: (key: string) => string): Item[] {
  return nodes.map((node) =>
    node.children.length > 0
      ? { key: node.id, label: t(node.titleKey), children: toItems(node.children, t) }
      : { key: node.id, label: t(node.titleKey) },
  );
}

function findNode(nodes: SideNode[], id: string): SideNode | undefined {
  for (const node of nodes) {
    if (node.id === id) return node;
    const below = findNode(node.children, id);
    if (below) return below;
  }
  return undefined;
}

/** The inline side menu (three levels) of the current system. */
export function SideMenu({
  pages,
  appNo,
  currentPageId,
  onOpenPath,
}: {
  pages: MenuPage[];
  appNo: string | null;
  currentPageId: string | null;
  onOpenPath: (path: string) => void;
}) {
  const { t } = useTranslation();
  const tree = useMemo(() => (appNo ? sideMenuTree(pages, appNo) : []), [pages, appNo]);
  // the groups above the current page are open from the first render: opening them in an effect rendered the
  // menu a second time right after the layout's first render (issue 27)
  const [openKeys, setOpenKeys] = useState<string[]>(() => (currentPageId ? ancestorsOf(tree, currentPageId) : []));

  // the groups above the current page open whenever the page changes; the user's own choices stay
  useEffect(() => {
    if (!currentPageId) return;
    const above = ancestorsOf(tree, currentPageId);
    setOpenKeys((keys) => (above.every((key) => keys.includes(key)) ? keys : [...new Set([...keys, ...above])]));
  }, [tree, currentPageId]);

  if (tree.length === 0) return null;
  return (
    <nav aria-label={t('layout.sideMenu')} className="campus-side-menu">
      <Menu
        mode="inline"
        // the hover titles are for a collapsed menu, which this one never is: without them each item is one
        // element less to render and to mount
        tooltip={false}
        items={toItems(tree, t)}
        selectedKeys={currentPageId ? [currentPageId] : []}
        openKeys={openKeys}
        onOpenChange={setOpenKeys}
        onClick={({ key }) => {
          const node = findNode(tree, key);
          if (node?.path) onOpenPath(node.path);
        }}
      />
    </nav>
  );
}
