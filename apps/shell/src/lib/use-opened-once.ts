import { useState } from 'react';

/**
 * True from the first time `open` is true. What is rendered behind it (a dialog, the user menu's dropdown) costs
 * nothing until it is first opened, and stays mounted afterwards so it can animate closed.
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}
