import { useMediaQuery } from './media-query.ts';

/**
 * Up to this width (CSS pixels) the signed-in layout is the phone one: the systems and the side menu behind one
 * menu button, in a drawer (main-layout.css has the same breakpoint). 767 keeps a tablet held upright (768) on
 * the full layout and every phone, held either way up to 740 wide, on this one.
 */
export const compactScreenMaxWidth = 767;

/** Whether the window is phone-sized; follows rotation and resizing live. */
export function useCompactScreen(): boolean {
  return useMediaQuery(`(max-width: ${compactScreenMaxWidth}px)`);
}
