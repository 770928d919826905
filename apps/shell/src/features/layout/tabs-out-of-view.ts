import { useEffect, useState, type RefObject } from 'react';

/** A tab showing less than this share of itself counts as out of view (a cut tab cannot be read or hit well). */
const wholeShare = 0.98;

/**
 * The keys of the tabs not wholly inside the tab strip, in strip order, as the browser's intersection observer
 * reports them once the page is laid out (nothing is measured during a render). Each tab is the `[role="tab"]`
 * holding a `[data-tab-path]`. Without an observer (jsdom) no tab counts as out of view.
 */
export function useTabsOutOfView(strip: RefObject<HTMLElement | null>, keys: readonly string[]): string[] {
  const [outOfView, setOutOfView] = useState<readonly string[]>([]);
  const order = keys.join('\n');
  useEffect(() => {
    const root = strip.current;
    if (!root || typeof IntersectionObserver === 'undefined') return;
    const hidden = new Set<string>();
    const keyOf = (tab: Element) => tab.querySelector('[data-tab-path]')?.getAttribute('data-tab-path') ?? '';
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (entry.intersectionRatio < wholeShare) hidden.add(keyOf(entry.target));
          else hidden.delete(keyOf(entry.target));
        }
        const next = order.split('\n').filter((key) => hidden.has(key));
        setOutOfView((current) => (current.join('\n') === next.join('\n') ? current : next));
      },
      { root, threshold: [0, wholeShare, 1] },
    );
    for (const tab of root.querySelectorAll('[role="tab"]')) observer.observe(tab);
    return () => observer.disconnect();
  }, [strip, order]);
  return outOfView.filter((key) => keys.includes(key));
}
