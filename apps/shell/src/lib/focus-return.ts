/**
 * Where the focus goes back to when a dialog closes: the control that opened it. antd gives the focus back to what
 * had it when the dialog opened, which for an entry of a dropdown menu is the menu's item, hidden by then (the
 * focus falls to the page body). The dialogs the user menu opens turn that off and call returnFocus afterClose.
 */
let target: HTMLElement | null = null;

/** Remembers the control to give the focus back to when the dialog it opens closes. */
export function returnFocusLater(control: HTMLElement | null): void {
  target = control;
}

/** Gives the focus back to the remembered control, if it is still on the page. */
export function returnFocus(): void {
  const control = target;
  target = null;
  if (control?.isConnected) control.focus({ preventScroll: true });
}
