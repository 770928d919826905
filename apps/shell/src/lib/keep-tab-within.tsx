import type { KeyboardEvent, ReactNode } from 'react';

const candidates = 'a[href], button, input, select, textarea, [tabindex]';

/** The elements Tab stops at inside `container`, in document order (a positive tabindex is not used in the shell). */
export function tabStops(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(candidates)).filter(
    (element) =>
      element.tabIndex >= 0 &&
      !(element as HTMLButtonElement).disabled &&
      !element.closest('[inert], [aria-hidden="true"]') &&
      // jsdom draws nothing and has no checkVisibility: there every element counts as shown
      (typeof element.checkVisibility !== 'function' || element.checkVisibility({ visibilityProperty: true })),
  );
}

/**
 * A dialog's keydown handler: Tab on its last stop goes to its first, Shift+Tab on its first to its last. antd's
 * own focus lock brings the focus back only once it has left, so one Tab press went to the page behind
 * (the body) at the end of About System and of the phone's drawer (issue 48, item 15).
 */
export function keepTabWithin(event: KeyboardEvent<HTMLElement>): void {
  if (event.key !== 'Tab' || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
  const stops = tabStops(event.currentTarget);
  const first = stops[0];
  const last = stops[stops.length - 1];
  if (!first || !last) return;
  const active = document.activeElement;
  const wrapTo = event.shiftKey ? (active === first || active === event.currentTarget ? last : null) : active === last ? first : null;
  if (!wrapTo) return;
  event.preventDefault();
  wrapTo.focus();
}

/** For antd's `modalRender` / `drawerRender`: the dialog's panel inside a box (no box of its own) that keeps Tab within. */
export function withTabKeptWithin(node: ReactNode): ReactNode {
  return (
    <div style={{ display: 'contents' }} onKeyDown={keepTabWithin}>
      {node}
    </div>
  );
}
