import { useEffect, useId, useRef, useState, type KeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react';
import type { MenuSystem } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import { systemLabelKey } from '../../lib/menus.ts';
import { headerModuleCount, initialWidth, splitModules, trackWidth } from './header-modules.ts';
import { useSystemsThatFit, useToolsWidth, useWindowWidth } from './header-fit.ts';
import { NavigationLink } from './navigation-link.tsx';
import type { MenuTarget } from './side-menu-tree.ts';

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

interface SystemLinksProps {
  currentAppNo: string | null;
  targetOf: (system: MenuSystem) => MenuTarget;
}

function SystemLink({ system, currentAppNo, targetOf, className, onChosen }: SystemLinksProps & { system: MenuSystem; className: string; onChosen?: () => void }) {
  const { t } = useTranslation();
  const text = t(systemLabelKey(system.appNo), { defaultValue: system.label });
  return (
    <NavigationLink className={className} target={targetOf(system)} aria-current={system.appNo === currentAppNo ? 'true' : undefined} onChosen={onChosen}>
      <span data-module={system.appNo} title={text}>
        {text}
      </span>
    </NavigationLink>
  );
}

/** How long a list opened by hovering stays open after the pointer leaves it (a path to it may cross a gap). */
const hoverCloseDelayMs = 200;

/**
 * The header's More: a button that shows the remaining systems below it (the WAI-ARIA disclosure pattern). A
 * mouse opens it by hovering, as antd's menu did; a click or Enter keeps it open until a system is chosen, Escape,
 * a press elsewhere or the focus leaving it. Arrow keys move between its systems.
 */
function MoreSystems({ systems, currentAppNo, targetOf }: SystemLinksProps & { systems: MenuSystem[] }) {
  const { t } = useTranslation();
  const [openedBy, setOpenedBy] = useState<'hover' | 'press' | null>(null);
  const open = openedBy !== null;
  const wrapper = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const closeTimer = useRef<number | undefined>(undefined);
  const focusOnOpen = useRef<'first' | 'last' | null>(null);
  // a press inside moves the focus away (or, in Safari, to nowhere) before its click: that must not close the list
  const pressedInside = useRef(false);
  const listId = useId();

  const links = () => Array.from(wrapper.current?.querySelectorAll<HTMLAnchorElement>('.campus-more-popup a') ?? []);
  const close = () => {
    window.clearTimeout(closeTimer.current);
    setOpenedBy(null);
  };

  useEffect(() => {
    if (!open) return;
    if (focusOnOpen.current) {
      const all = links();
      (focusOnOpen.current === 'first' ? all[0] : all[all.length - 1])?.focus();
      focusOnOpen.current = null;
    }
    const onPointerDown = (event: PointerEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) close();
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);
  useEffect(() => {
    // the press is over wherever it ends (its focus change came before)
    const released = () => void (pressedInside.current = false);
    document.addEventListener('pointerup', released);
    document.addEventListener('pointercancel', released);
    return () => {
      window.clearTimeout(closeTimer.current);
      document.removeEventListener('pointerup', released);
      document.removeEventListener('pointercancel', released);
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape' && open) {
      event.stopPropagation();
      close();
      button.current?.focus();
      return;
    }
    if (event.target === button.current) {
      if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
      event.preventDefault();
      if (open) {
        const all = links();
        (event.key === 'ArrowDown' ? all[0] : all[all.length - 1])?.focus();
      } else {
        focusOnOpen.current = event.key === 'ArrowDown' ? 'first' : 'last';
        setOpenedBy('press');
      }
      return;
    }
    const all = links();
    const at = all.indexOf(event.target as HTMLAnchorElement);
    if (at < 0) return;
    const next = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: all.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    all[(next + all.length) % all.length]?.focus();
  };
  const isMouse = (event: ReactPointerEvent) => event.pointerType === 'mouse';

  return (
    <div
      ref={wrapper}
      className="campus-top-menu__more"
      onKeyDown={onKeyDown}
      onPointerDown={() => void (pressedInside.current = true)}
      onBlur={(event) => {
        if (!pressedInside.current && !wrapper.current?.contains(event.relatedTarget as Node | null)) close();
      }}
      onPointerEnter={(event) => {
        if (!isMouse(event)) return;
        window.clearTimeout(closeTimer.current);
        if (!open) setOpenedBy('hover');
      }}
      onPointerLeave={(event) => {
        if (isMouse(event) && openedBy === 'hover') closeTimer.current = window.setTimeout(close, hoverCloseDelayMs);
      }}
    >
      <button
        ref={button}
        type="button"
        className={`campus-top-menu__system campus-top-menu__more-button${systems.some((system) => system.appNo === currentAppNo) ? ' campus-top-menu__system--current' : ''}`}
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        // opened by hovering, a click keeps it open; opened by a click, a second one closes it
        onClick={() => setOpenedBy((by) => (by === 'hover' ? 'press' : by ? null : 'press'))}
      >
        <span data-module-more="">{t('layout.more')}</span>
        <span className="campus-top-menu__arrow" aria-hidden="true" />
      </button>
      {open ? (
        <ul id={listId} className="campus-more-popup">
          {systems.map((system) => (
            <li key={system.appNo}>
              <SystemLink system={system} currentAppNo={currentAppNo} targetOf={targetOf} className="campus-more-popup__system" onChosen={close} />
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/**
 * The header's systems (spec §2), as many as the tracked width allows and the product name leaves room for, the
 * rest under More. Plain links and a
 * disclosure instead of antd's horizontal Menu, which cost about a quarter of the layout's first render (issue 27).
 */
export function TopMenu({
  systems,
  currentAppNo,
  theme,
  width,
  targetOf,
}: {
  systems: MenuSystem[];
  currentAppNo: string | null;
  theme: 'dark' | 'light';
  /** The tracked window width (useTrackedWidth). */
  width: number;
  /** Where choosing a system goes (its first page). */
  targetOf: (system: MenuSystem) => MenuTarget;
}) {
  const { t, i18n } = useTranslation();
  const nav = useRef<HTMLElement>(null);
  const toolsWidth = useToolsWidth(nav);
  const windowWidth = useWindowWidth();
  const count = useSystemsThatFit(headerModuleCount(width), [windowWidth, i18n.language, toolsWidth, ...systems.map((system) => system.appNo)].join(' '), nav);
  const { shown, more } = splitModules(systems, count);
  return (
    <nav ref={nav} aria-label={t('layout.systems')} className="campus-top-menu" data-theme={theme}>
      <ul className="campus-top-menu__list">
        {shown.map((system) => (
          <li key={system.appNo} className="campus-top-menu__item">
            <SystemLink system={system} currentAppNo={currentAppNo} targetOf={targetOf} className="campus-top-menu__system" />
          </li>
        ))}
      </ul>
      {more.length > 0 ? <MoreSystems systems={more} currentAppNo={currentAppNo} targetOf={targetOf} /> : null}
    </nav>
  );
}

/** The systems as a plain list of links (the phone's drawer). */
export function SystemList({ systems, currentAppNo, targetOf, onChosen }: SystemLinksProps & { systems: MenuSystem[]; onChosen?: () => void }) {
  return (
    <ul className="campus-side-menu__list">
      {systems.map((system) => (
        <li key={system.appNo}>
          <SystemLink system={system} currentAppNo={currentAppNo} targetOf={targetOf} className="campus-side-menu__entry" onChosen={onChosen} />
        </li>
      ))}
    </ul>
  );
}
