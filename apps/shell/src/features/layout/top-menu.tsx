import { useEffect, useState } from 'react';
import { Menu } from 'antd';
import type { MenuProps } from 'antd';
import type { MenuSystem } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import { systemLabelKey } from '../../lib/menus.ts';
import { headerModuleCount, initialWidth, splitModules, trackWidth } from './header-modules.ts';

const moreKey = '__more__';

/** The tracked window width of spec §2: it follows resizes only above 1000. */
export function useTrackedWidth(): number {
  const [width, setWidth] = useState(() => initialWidth(window.innerWidth));
  useEffect(() => {
    const onResize = () => setWidth((previous) => trackWidth(previous, window.innerWidth));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return width;
}

/** The header's horizontal menu of the user's systems, with the rest under More. */
export function TopMenu({
  systems,
  currentAppNo,
  theme,
  width,
  onOpen,
}: {
  systems: MenuSystem[];
  currentAppNo: string | null;
  theme: 'dark' | 'light';
  /** The tracked window width (useTrackedWidth). */
  width: number;
  onOpen: (system: MenuSystem) => void;
}) {
  const { t } = useTranslation();
  const { shown, more } = splitModules(systems, headerModuleCount(width));
  const label = (system: MenuSystem) => {
    const text = t(systemLabelKey(system.appNo), { defaultValue: system.label });
    return (
      <span data-module={system.appNo} title={text}>
        {text}
      </span>
    );
  };

  const items: MenuProps['items'] = shown.map((system) => ({ key: system.appNo, label: label(system) }));
  if (more.length > 0) {
    items.push({
      key: moreKey,
      label: <span data-module-more="">{t('layout.more')}</span>,
      popupClassName: 'campus-more-popup',
      children: more.map((system) => ({ key: system.appNo, label: label(system) })),
    });
  }

  return (
    <nav aria-label={t('layout.systems')} className="campus-top-menu">
      <Menu
        mode="horizontal"
        theme={theme}
        disabledOverflow
        // hover titles are for a collapsed inline menu; the labels carry their own title
        tooltip={false}
        selectedKeys={currentAppNo ? [currentAppNo, ...(more.some((s) => s.appNo === currentAppNo) ? [moreKey] : [])] : []}
        items={items}
        onClick={({ key }) => {
          const system = systems.find((candidate) => candidate.appNo === key);
          if (system) onOpen(system);
        }}
      />
    </nav>
  );
}
