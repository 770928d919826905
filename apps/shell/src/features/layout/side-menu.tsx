import { useEffect, useId, useMemo, useState } from 'react';
import type { MenuPage } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import { NavigationLink } from './navigation-link.tsx';
import { ancestorsOf, sideMenuTree, type MenuTarget, type SideNode } from './side-menu-tree.ts';

/** antd's inline menu indents each level by 24 px; the side menu keeps that look. */
const indentPerLevel = 24;

interface BranchProps {
  nodes: SideNode[];
  level: number;
  id?: string;
  idBase: string;
  openIds: string[];
  /** The groups above the current page (shown in the accent colour, as the page itself). */
  currentGroups: string[];
  onToggle: (id: string) => void;
  currentPageId: string | null;
  targetOf: (path: string) => MenuTarget;
  onChosen?: () => void;
}

function Branch({ nodes, level, id, idBase, openIds, currentGroups, onToggle, currentPageId, targetOf, onChosen }: BranchProps) {
  const { t } = useTranslation();
  const indent = { paddingInlineStart: level * indentPerLevel };
  return (
    <ul className="campus-side-menu__list" id={id}>
      {nodes.map((node) => {
        if (node.children.length === 0) {
          return (
            <li key={node.id}>
              <NavigationLink
                className="campus-side-menu__entry"
                style={indent}
                target={targetOf(node.path)}
                aria-current={node.id === currentPageId ? 'page' : undefined}
                onChosen={onChosen}
              >
                <span className="campus-side-menu__title">{t(node.titleKey)}</span>
              </NavigationLink>
            </li>
          );
        }
        const open = openIds.includes(node.id);
        const listId = `${idBase}-${node.id.replace(/\s/g, '_')}`;
        return (
          <li key={node.id}>
            <button
              type="button"
              className="campus-side-menu__entry campus-side-menu__group"
              style={indent}
              data-current={currentGroups.includes(node.id) || undefined}
              aria-expanded={open}
              aria-controls={open ? listId : undefined}
              onClick={() => onToggle(node.id)}
            >
              <span className="campus-side-menu__title">{t(node.titleKey)}</span>
              <span className="campus-side-menu__arrow" aria-hidden="true" />
            </button>
            {/* a closed group's pages are not rendered at all: the layout's first render stays small (issue 27) */}
            {open ? (
              <Branch
                nodes={node.children}
                level={level + 1}
                id={listId}
                idBase={idBase}
                openIds={openIds}
                currentGroups={currentGroups}
                onToggle={onToggle}
                currentPageId={currentPageId}
                targetOf={targetOf}
                onChosen={onChosen}
              />
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The side menu (three levels) of the current system, as the WAI-ARIA disclosure navigation: pages are links
 * (the current one has aria-current), groups are buttons that show or hide their pages. It replaced antd's
 * inline Menu, which was about a quarter of the layout's first render after sign-in (issue 27).
 */
export function SideMenu({
  pages,
  appNo,
  currentPageId,
  targetOf,
  onChosen,
}: {
  pages: MenuPage[];
  appNo: string | null;
  currentPageId: string | null;
  targetOf: (path: string) => MenuTarget;
  /** Called after a page is chosen (the phone's drawer closes). */
  onChosen?: () => void;
}) {
  const { t } = useTranslation();
  const idBase = useId();
  const tree = useMemo(() => (appNo ? sideMenuTree(pages, appNo) : []), [pages, appNo]);
  // the groups above the current page are open from the first render: opening them in an effect rendered the
  // menu a second time right after the layout's first render
  const [openIds, setOpenIds] = useState<string[]>(() => (currentPageId ? ancestorsOf(tree, currentPageId) : []));

  // the groups above the current page open whenever the page changes; the user's own choices stay
  useEffect(() => {
    if (!currentPageId) return;
    const above = ancestorsOf(tree, currentPageId);
    setOpenIds((ids) => (above.every((id) => ids.includes(id)) ? ids : [...new Set([...ids, ...above])]));
  }, [tree, currentPageId]);

  if (tree.length === 0) return null;
  const toggle = (id: string) => setOpenIds((ids) => (ids.includes(id) ? ids.filter((open) => open !== id) : [...ids, id]));
  return (
    <nav aria-label={t('layout.sideMenu')} className="campus-side-menu">
      <Branch
        nodes={tree}
        level={1}
        idBase={idBase}
        openIds={openIds}
        currentGroups={currentPageId ? ancestorsOf(tree, currentPageId) : []}
        onToggle={toggle}
        currentPageId={currentPageId}
        targetOf={targetOf}
        onChosen={onChosen}
      />
    </nav>
  );
}
