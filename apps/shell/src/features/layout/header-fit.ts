import { useEffect, useLayoutEffect, useState, type RefObject } from 'react';
import { minTrackedWidth } from './header-modules.ts';

/** An element whose text does not fit: cut at its end or clamped below its last line (half a pixel of rounding aside). */
function isCut(element: Element): boolean {
  return element.scrollWidth > element.clientWidth + 0.5 || element.scrollHeight > element.clientHeight + 1;
}

/**
 * Whether the header is short of room with the systems it shows now: the product name beside them is cut, a
 * system's name is cut, or the systems run out of their strip.
 */
export function headerIsShortOfRoom(nav: HTMLElement): boolean {
  const name = nav.closest('header')?.querySelector('.campus-layout__system-name');
  if (name && isCut(name)) return true;
  const list = nav.querySelector('.campus-top-menu__list');
  if (list && list.scrollWidth > list.clientWidth + 0.5) return true;
  return Array.from(nav.querySelectorAll('[data-module], [data-module-more]')).some(isCut);
}

/**
 * How many systems the header shows: spec §2's count at most, and fewer while the header is short of room, so the
 * rest go under More before the product name is cut ("Campus Manage…" at 1366 px in en-US, issue 48 item 10).
 * Counted again, before the browser paints, whenever `key` changes (the window's width, the language, the systems,
 * the room the tools take); at 1000 px the tracked width is still the last one above, the window's is not.
 */
export function useSystemsThatFit(limit: number, key: string, nav: RefObject<HTMLElement | null>): number {
  const [fitted, setFitted] = useState({ key, count: limit });
  const brandChanges = useBrandChanges(nav);
  // below 1000 px the count stays as it was (spec §2): the names shrink instead
  const frozen = window.innerWidth < minTrackedWidth;
  const count = fitted.key === key || frozen ? Math.min(fitted.count, limit) : limit;
  useLayoutEffect(() => {
    const element = nav.current;
    if (!element || frozen) return;
    // one system fewer per pass, each before the paint, until everything fits
    if (count > 0 && headerIsShortOfRoom(element)) setFitted({ key, count: count - 1 });
    else if (fitted.key !== key || fitted.count !== count) setFitted({ key, count });
  }, [nav, frozen, count, key, fitted.key, fitted.count, brandChanges]);
  return count;
}

/**
 * Counts changes to the product name's room that no key names: the logo's image arriving (its width is known only
 * then), the name the server sends replacing the built-in one. Each change checks the fit again without starting
 * over from spec §2's count, so the systems given up to make room can only go down and the checks end.
 */
function useBrandChanges(nav: RefObject<HTMLElement | null>): number {
  const [changes, setChanges] = useState(0);
  useLayoutEffect(() => {
    const brand = nav.current?.closest('header')?.querySelector('.campus-layout__brand');
    const name = brand?.querySelector('.campus-layout__system-name');
    if (!brand || !name || typeof ResizeObserver === 'undefined') return;
    const changed = () => setChanges((n) => n + 1);
    const resized = new ResizeObserver(changed);
    resized.observe(name);
    const edited = new MutationObserver(changed);
    edited.observe(brand, { subtree: true, childList: true, characterData: true, attributes: true });
    // an image's load does not bubble: caught on the way down
    brand.addEventListener('load', changed, true);
    return () => {
      resized.disconnect();
      edited.disconnect();
      brand.removeEventListener('load', changed, true);
    };
  }, [nav]);
  return changes;
}

/** The width of the header's tools beside the systems (the user's name arrives after the first render). */
export function useToolsWidth(nav: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const tools = nav.current?.closest('header')?.querySelector('.campus-layout__tools');
    if (!tools || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setWidth(Math.round(tools.getBoundingClientRect().width)));
    observer.observe(tools);
    return () => observer.disconnect();
  }, [nav]);
  return width;
}

/** The window's width, followed on every resize (the tracked width of spec §2 stops at 1000 px). */
export function useWindowWidth(): number {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    const onResize = () => setWidth(window.innerWidth);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return width;
}
